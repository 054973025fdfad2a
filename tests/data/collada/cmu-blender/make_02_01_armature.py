# Blender 3.4: reads a CMU BVH take with its own BVH importer and writes the armature alone (no
# mesh) with its action as Collada, the way mocap libraries ship Collada takes.
#   blender -b --factory-startup --python make_02_01_armature.py -- IN.bvh OUT.dae
import builtins, sys
import bpy
import io_anim_bvh.import_bvh
source, target = sys.argv[sys.argv.index("--") + 1:]
# Blender 3.4's BVH importer opens with mode 'rU', which its Python (3.11) no longer accepts.
io_anim_bvh.import_bvh.open = lambda path, mode="r", *rest, **named: builtins.open(path, mode.replace("U", ""), *rest, **named)
bpy.ops.wm.read_factory_settings(use_empty=True)
# The take's own frame rate and length, so the exported action keeps every captured frame.
bpy.ops.import_anim.bvh(filepath=source, update_scene_fps=True, update_scene_duration=True)
bpy.ops.wm.collada_export(filepath=target, include_animations=True, export_animation_type_selection="sample",
                          sampling_rate=1)
