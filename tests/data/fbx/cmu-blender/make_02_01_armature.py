# Blender 3.4: reads a glTF holding one armature and writes that armature alone (no mesh) with
# its action as FBX, the way a mocap library ships FBX takes.
#   blender -b --factory-startup --python make_02_01_armature.py -- IN.glb OUT.fbx
import numpy
if not hasattr(numpy, "bool"): numpy.bool = bool  # Blender 3.4's glTF importer predates numpy 1.24
import bpy, sys
source, target = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=source)
bpy.ops.export_scene.fbx(filepath=target, object_types={'ARMATURE'})
