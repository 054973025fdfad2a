#!/usr/bin/env python3
"""A mutation run over real files: what a damaged or hostile file does to articula-cli.

Mutates the test suite's own files (glTF, BVH, FBX, Collada, projects) by byte flips,
truncations, number edits, repeated slices and deep nesting, and binary glTF files the way a
crafted file would (deep and huge node trees, repeated animations, extreme times, duplicated
skin joints, degenerate normals, long and binary names), runs `articula-cli info --json`
and `articula-cli bake --contacts detect` on each mutant under a time and a memory cap, runs
the Khronos glTF validator on every file a bake wrote, and prints per format how many mutants
were read (ok), refused with a clear error (one line under 300 characters naming the file),
refused unclearly, crashed, hung, ran out of memory or were written as invalid glTF.

    tests/tools/mutation_run.py --cli build/app/articula-cli --per-format 300 --jobs 2

With --editor PATH it drives the editor instead (under a display, e.g. xvfb-run): each mutant
is opened by `articula --benchmark-viewport`, which shows it in the window and plays frames
through the viewport; a run must end in time with the clip played or one clear line.

Mutants that are not ok or a clear error are kept in --keep (default mutation-findings/) with
the command's output, to be turned into regression tests. Exit status 1 when any run crashed,
hung, ran out of memory, wrote an invalid file or failed unclearly.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
VALIDATOR = ROOT / "tests" / "tools" / "validate_gltf.mjs"
VALIDATOR_DIR = ROOT / "tests" / "tools" / "node_modules" / "gltf-validator"

# Seeds per format: the suite's small and middle-sized files (large ones make slow mutants),
# with a humanoid in each, so that some mutants get through `bake --contacts detect`.
SEEDS = {
    "gltf": ["gltf/CesiumMan/CesiumMan.glb", "gltf/SimpleSkin/glTF-Embedded/SimpleSkin.gltf",
             "gltf/AnimatedMorphCube/AnimatedMorphCube.glb",
             "gltf/RiggedSimple/RiggedSimple.glb", "gltf/assimp-quad_skin/quad_skin.glb",
             "gltf/BoxAnimated/BoxAnimated.glb", "gltf/InterpolationTest/InterpolationTest.glb"],
    "bvh": ["bvh/makehuman/walk1.bvh", "bvh/cmu-mb-2010/09_11.bvh", "bvh/cmu-mb-2010/02_03.bvh"],
    "fbx": ["fbx/assimp/huesitos.fbx", "fbx/assimp/animation_with_skeleton.fbx", "fbx/cmu-blender/02_01_armature.fbx"],
    "collada": ["collada/assimp/box_nested_animation.dae", "collada/khronos-cts/animation_interpolation_step.dae",
                "collada/khronos-cts/animation_interpolation_bezier.dae", "collada/cmu-blender/02_01_armature.dae"],
    "project": ["projects/mannequin_v1.articula", "projects/rigged_simple_v1.articula",
                "projects/mannequin_v2.articula"],
}
NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
ODD_NUMBERS = [b"0", b"-1", b"1e38", b"-1e38", b"1e308", b"nan", b"inf", b"-inf", b"4294967295", b"2147483648",
               b"99999999999999999999", b"x", b"", b"1.5", b"0.0000001"]
CLASSES = ["ok", "not validated", "clear error", "unclear error", "crash", "hang", "memory", "invalid output"]
GOOD = 3  # the classes before this index are no finding


def mutate(data: bytes, text: bool, rng: random.Random) -> tuple[str, bytes]:
    """One mutation of `data`: (what was done, the mutant)."""
    kinds = ["flip", "truncate", "repeat"] + (["number", "number", "nest"] if text else ["flip"])
    if data[:4] == b"glTF":
        kinds += ["hostile"] * 3
    kind = rng.choice(kinds)
    if kind == "hostile":
        return hostile_glb(data, rng)
    if kind == "flip":
        out = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
        return "byte flips", bytes(out)
    if kind == "truncate":
        return "truncation", data[: rng.randrange(len(data))]
    if kind == "repeat":
        start = rng.randrange(len(data))
        piece = data[start:start + rng.randint(1, 200)]
        return "repeated slice", data[:start] + piece * rng.choice([2, 100, 10000]) + data[start:]
    if kind == "number":
        matches = list(NUMBER.finditer(data))
        if not matches:
            return "truncation", data[: rng.randrange(len(data))]
        out = data
        for match in sorted(rng.sample(matches, min(len(matches), rng.randint(1, 3))), key=lambda m: -m.start()):
            out = out[:match.start()] + rng.choice(ODD_NUMBERS) + out[match.end():]
        return "number edits", out
    return "nesting", nest(data, rng)


def nest(data: bytes, rng: random.Random) -> bytes:
    """Deep nesting in the format's own syntax at a random place."""
    depth = rng.choice([100, 5000, 50000])
    at = rng.randrange(len(data))
    if data.lstrip().startswith(b"{"):  # glTF JSON and projects: nested arrays inside a value
        colon = data.find(b":", at)
        if colon < 0:
            colon = data.find(b":")
        return data[:colon + 1] + b"[" * depth + b"1" + b"]" * depth + b"," + data[colon + 1:]
    if b"<COLLADA" in data[:400]:
        tag = data.find(b"<node", at)
        if tag < 0:
            tag = data.find(b"<node")
        return data[:tag] + b'<node id="deep">' * depth + b"</node>" * depth + data[tag:]
    if data.startswith(b"HIERARCHY"):
        brace = data.find(b"{", at)
        if brace < 0:
            brace = data.find(b"{")
        joint = b"JOINT deep\n{\nOFFSET 0 0 1\nCHANNELS 3 Zrotation Xrotation Yrotation\n"
        return data[:brace + 1] + joint * depth + b"}\n" * depth + data[brace + 1:]
    return data[:at] + data[at:at + 64] * depth + data[at:]


def read_glb(data: bytes) -> tuple[dict, bytes]:
    """The JSON and the BIN chunk of a binary glTF."""
    json_length = struct.unpack_from("<I", data, 12)[0]
    document = json.loads(data[20:20 + json_length])
    rest = data[20 + json_length:]
    return document, (rest[8:8 + struct.unpack_from("<I", rest, 0)[0]] if len(rest) >= 8 else b"")


def write_glb(document: dict, binary: bytes) -> bytes:
    text = json.dumps(document, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    chunks = struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(binary), b"BIN\0") + binary
    return struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks


def add_node_tree(document: dict, count: int, shape: str) -> None:
    """`count` empty nodes: a "chain" under the first scene root, "siblings" under it, or
    "roots" of the scene."""
    nodes = document.setdefault("nodes", [])
    scene = document["scenes"][document.get("scene", 0)]
    root = scene["nodes"][0]
    first = len(nodes)
    nodes += [{"name": f"extra{i}"} for i in range(count)]
    if shape == "chain":
        for i in range(first, first + count - 1):
            nodes[i]["children"] = [i + 1]
        nodes[root].setdefault("children", []).append(first)
    elif shape == "siblings":
        nodes[root].setdefault("children", []).extend(range(first, first + count))
    else:
        scene["nodes"].extend(range(first, first + count))


def set_float(document: dict, binary: bytearray, accessor: int, element: int, values: list[float]) -> None:
    """Overwrites one float element of an accessor in the BIN chunk (and its min/max)."""
    access = document["accessors"][accessor]
    view = document["bufferViews"][access["bufferView"]]
    width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[access["type"]]
    stride = view.get("byteStride", 4 * width)
    at = view.get("byteOffset", 0) + access.get("byteOffset", 0) + element * stride
    struct.pack_into(f"<{len(values)}f", binary, at, *values)
    if "min" in access:
        access["min"] = [min(a, b) for a, b in zip(access["min"], values)]
        access["max"] = [max(a, b) for a, b in zip(access["max"], values)]


def hostile_glb(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """What a crafted file does rather than a damaged one: deep and huge trees, repeated
    animations, extreme times, duplicated skin joints, degenerate normals, long and binary
    names. Falls back to a byte flip when the seed lacks what the operator changes."""
    document, binary = read_glb(data)
    binary = bytearray(binary)
    kind = rng.choice(["deep", "wide", "animations", "time", "joint", "normal", "long name", "binary name"])
    animations, skins = document.get("animations", []), document.get("skins", [])
    meshes = [p for m in document.get("meshes", []) for p in m["primitives"] if "NORMAL" in p["attributes"]]
    if kind == "deep":
        add_node_tree(document, rng.choice([20000, 40000, 100000]), "chain")
    elif kind == "wide":
        add_node_tree(document, rng.choice([100000, 1000000]), rng.choice(["siblings", "roots"]))
    elif kind == "animations" and animations:
        document["animations"] = animations * rng.choice([100, 2004])
    elif kind == "time" and animations:
        sampler = rng.choice(animations[0]["samplers"])
        set_float(document, binary, sampler["input"], 0, [rng.choice([-1e38, 1e9, 3e38])])
    elif kind == "joint" and skins and len(skins[0]["joints"]) > 1:
        joints = skins[0]["joints"]
        joints[rng.randrange(1, len(joints))] = joints[0]
    elif kind == "normal" and meshes:
        set_float(document, binary, rng.choice(meshes)["attributes"]["NORMAL"], 0, [0.0, 0.0, 0.0])
    elif kind in ("long name", "binary name") and document.get("nodes"):
        node = rng.choice(document["nodes"])
        node["name"] = "x" * 100000 if kind == "long name" else "\0" * 1000 + "\x07bone\x1b[31m"
    else:
        return mutate(data, False, rng)
    return kind, write_glb(document, bytes(binary))


def limit_child(memory_bytes: int):
    def apply():
        if memory_bytes:  # 0: no cap (a sanitizer reserves terabytes of address space at start)
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        os.setsid()
    return apply


def run(command: list[str], seconds: int, memory_bytes: int) -> tuple[str, int, str]:
    """('done' | 'hang', exit status (negative: signal), stderr)."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               preexec_fn=limit_child(memory_bytes))
    try:
        _, err = process.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return "hang", -signal.SIGKILL, ""
    return "done", process.returncode, err.decode("utf-8", "replace")


def classify(state: str, status: int, stderr: str, paths: list[str]) -> str:
    """The class of one run; a clear error names one of `paths` (the input, or the output an
    export refused to write)."""
    if state == "hang":
        return "hang"
    if "bad_alloc" in stderr or "out of memory" in stderr.lower():
        return "memory"
    if status < 0 or status >= 128:
        return "crash"
    if status == 0:
        return "ok"
    # The CLI prints "error: " and the editor "articula: " before the message Articula built;
    # the message is what is held to one line under 300 characters. Qt's own diagnostics
    # ("qt.…", "QStandardPaths: …") are not ours.
    lines = [line.removeprefix("error: ").removeprefix("articula: ") for line in stderr.splitlines()
             if line.strip() and not line.startswith(("warning", "qt.", "QStandardPaths"))]
    if len(lines) == 1 and len(lines[0]) < 300 and any(path in lines[0] for path in paths):
        return "clear error"
    return "unclear error"


def validate(node: str, glb: str) -> bool | None:
    """Whether the Khronos validator finds no error; None when it cannot check the file (it
    walks the node tree recursively and runs out of stack on a chain some thousands deep)."""
    try:
        result = subprocess.run([node, str(VALIDATOR), str(VALIDATOR_DIR), glb], capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return None
    if result.returncode == 0:
        return True
    return False if result.returncode == 1 else None


def check_in_editor(args, fmt: str, index: int, what: str, path: Path) -> tuple[str, str]:
    """The class of the editor showing one mutant and playing it, and a note for the findings."""
    for _ in range(3):  # a display that refused the connection (a busy Xvfb) is tried again
        state, status, stderr = run([args.editor, "--benchmark-viewport", "--frames", "10", str(path)], args.seconds,
                                    args.memory_gb << 30)
        if "could not connect to display" not in stderr:
            break
    verdict = classify(state, status, stderr, [path.name])
    return verdict, f"{fmt} #{index} ({what}): editor: {state} {status} {stderr.strip()[:400]}"


def check_mutant(args, fmt: str, index: int, what: str, path: Path) -> tuple[str, str]:
    """The worst class of the two commands on one mutant, and a note for the findings."""
    if args.editor:
        return check_in_editor(args, fmt, index, what, path)
    seconds, memory = args.seconds, args.memory_gb << 30
    state, status, stderr = run([args.cli, "info", "--json", str(path)], seconds, memory)
    worst = classify(state, status, stderr, [str(path)])
    notes = [f"info: {state} {status} {stderr.strip()[:400]}"]
    out = path.with_suffix(".baked.glb")
    state, status, stderr = run([args.cli, "bake", str(path), "--contacts", "detect", "--out", str(out)], seconds, memory)
    bake = classify(state, status, stderr, [str(path), str(out)])
    notes.append(f"bake: {state} {status} {stderr.strip()[:400]}")
    if bake == "ok" and out.exists() and args.node:
        valid = validate(args.node, str(out))
        bake = "invalid output" if valid is False else "not validated" if valid is None else bake
    out.unlink(missing_ok=True)
    worst = max(worst, bake, key=CLASSES.index)
    return worst, f"{fmt} #{index} ({what}): " + " | ".join(notes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", default=str(ROOT / "build" / "app" / "articula-cli"))
    parser.add_argument("--editor", help="the articula executable: open each mutant in the window instead")
    parser.add_argument("--per-format", type=int, default=300)
    parser.add_argument("--formats", default=",".join(SEEDS))
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--memory-gb", type=int, default=4, help="address-space cap per run; 0: none")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--keep", default="mutation-findings")
    args = parser.parse_args()
    args.node = shutil.which("node") if (VALIDATOR_DIR / "package.json").exists() else None
    if args.node is None:
        print("mutation_run: node or the glTF validator is missing (scripts/setup.sh): outputs are not validated",
              file=sys.stderr)
    rng = random.Random(args.seed)
    keep = Path(args.keep)
    counts = {}
    with tempfile.TemporaryDirectory(prefix="articula-mutants-") as work_dir:
        work = Path(work_dir)
        # Projects name their assets relative to tests/data/projects.
        for folder in ("gltf", "bvh", "fbx", "collada"):
            (work / folder).symlink_to(DATA / folder)
        (work / "mutants").mkdir()
        jobs = []
        for fmt in args.formats.split(","):
            counts[fmt] = dict.fromkeys(CLASSES, 0)
            seeds = [(DATA / s, (DATA / s).read_bytes()) for s in SEEDS[fmt]]
            folder = work / ("projects" if fmt == "project" else "mutants")
            folder.mkdir(exist_ok=True)
            for index in range(args.per_format):
                seed, data = rng.choice(seeds)
                text = seed.suffix in (".gltf", ".bvh", ".dae", ".articula")
                what, mutant = mutate(data, text, rng)
                path = folder / f"{fmt}_{index:04d}{seed.suffix}"
                path.write_bytes(mutant)
                jobs.append((fmt, index, f"{seed.name}: {what}", path))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = {pool.submit(check_mutant, args, *job): job for job in jobs}
            for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
                fmt, index, what, path = futures[future]
                verdict, note = future.result()
                counts[fmt][verdict] += 1
                if CLASSES.index(verdict) >= GOOD:
                    keep.mkdir(parents=True, exist_ok=True)
                    shutil.copy(path, keep / path.name)
                    (keep / (path.name + ".txt")).write_text(f"{verdict}: {note}\n")
                    print(f"{verdict}: {note}", file=sys.stderr, flush=True)
                if done % 100 == 0:
                    print(f"mutation_run: {done}/{len(jobs)} mutants", file=sys.stderr, flush=True)
    print("| format | mutants | " + " | ".join(CLASSES) + " |")
    print("| --- | --- | " + " | ".join("---" for _ in CLASSES) + " |")
    for fmt, row in counts.items():
        print(f"| {fmt} | {sum(row.values())} | " + " | ".join(str(row[c]) for c in CLASSES) + " |")
    bad = sum(row[c] for row in counts.values() for c in CLASSES[GOOD:])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
