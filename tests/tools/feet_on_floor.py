#!/usr/bin/python3
"""Do a character's feet stand on its floor? Judged on a written glTF by the glTF 2.0 spec and
the character's mesh, not its joints.

Usage: feet_on_floor.py OUT.glb --clip NAME --source SOURCE.glb --feet LEFT,RIGHT --head HEAD
                        [--source-feet LA,LT,RA,RT] [--source-head HEAD] [--fps 120] [--json]

OUT's clip NAME is sampled at --fps by client_judge/judge.py's spec evaluator (which loads
gltf_motion_report.py's), and each foot's mesh is posed as a player poses it: skinned
vertices by their joints and weights, rigid meshes by their node. A foot's mesh is every
vertex whose strongest joint is the named foot joint (LEFT, RIGHT) or below it, and every
mesh on a node below it. The floor is the lowest vertex of the character at rest (the
nodes' own transforms): where it stands. Heights are in mm for the character scaled to
1.75 m (HEAD at rest above the floor).

Contacts are the source's (SOURCE.glb, the capture as `articula-cli export` writes it, sampled
at the same frames): a foot is planted where its ankle or toe is within 3 % of the source's
height of its own floor there (the 5th percentile of its heights within 1 s) and moves slower
than 15 % of the height per second, for at least max(3 frames, 0.05 s).

Prints per contact [first, last, lowest, highest, median] sole height (the foot's lowest
vertex above the floor), and over the whole clip the lowest any foot vertex goes (`lowestMm`,
negative: below the floor) and the frame. Exit status 2 on bad arguments or names."""
import argparse
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "client_judge"))
import judge as J  # noqa: E402

R = J.R


def source_contacts(src, fps, feet, head):
    names, pos, frames = src["names"], src["pos"], src["frames"]
    height = pos[0, names.index(head), 1] - min(pos[:, names.index(n), 1].min() for n in feet)
    window = int(fps)
    spans = {}
    for side, joints in (("left", feet[:2]), ("right", feet[2:])):
        planted = np.zeros(frames, bool)
        for name in joints:
            p = pos[:, names.index(name)]
            y = p[:, 1]
            floor = np.array([np.percentile(y[max(0, f - window):f + window + 1], 5) for f in range(frames)])
            speed = np.zeros(frames)
            speed[1:-1] = np.linalg.norm(p[2:, [0, 2]] - p[:-2, [0, 2]], axis=1) * fps / 2
            speed[0], speed[-1] = speed[1], speed[-2]
            planted |= (y - floor < 0.03 * height) & (speed < 0.15 * height)
        found, f = [], 0
        while f < frames:
            if not planted[f]:
                f += 1
                continue
            k = f
            while k + 1 < frames and planted[k + 1]:
                k += 1
            if k - f + 1 >= max(3, int(0.05 * fps)):
                found.append((f, k))
            f = k + 1
        spans[side] = found
    return spans


class Character:
    """OUT's nodes and meshes, posed at a time of one animation or at rest."""

    def __init__(self, path, anim_index):
        self.doc, self.buffers = J.load(path)
        self.nodes = self.doc["nodes"]
        self.parent = [-1] * len(self.nodes)
        for i, node in enumerate(self.nodes):
            for c in node.get("children", []):
                self.parent[c] = i
        self.order = sorted(range(len(self.nodes)), key=self.depth)
        anim = self.doc["animations"][anim_index]
        self.channels = []
        for ch in anim["channels"]:
            sampler = anim["samplers"][ch["sampler"]]
            if ch["target"].get("node") is None or ch["target"]["path"] == "weights":
                continue
            self.channels.append((ch["target"]["node"], ch["target"]["path"],
                                  self.read(sampler["input"])[:, 0], self.read(sampler["output"]),
                                  sampler.get("interpolation", "LINEAR")))

    def read(self, accessor):
        return R["accessor"](self.doc, self.buffers, accessor)

    def depth(self, i):
        d = 0
        while self.parent[i] >= 0:
            i, d = self.parent[i], d + 1
        return d

    def below(self, root):
        inside = {root}
        for i in self.order:
            if self.parent[i] in inside:
                inside.add(i)
        return inside

    def world(self, t=None):
        local = []
        for node in self.nodes:
            if "matrix" in node:
                local.append(np.array(node["matrix"], float).reshape(4, 4).T)
            else:
                local.append([np.array(node.get("translation", [0, 0, 0]), float),
                              np.array(node.get("rotation", [0, 0, 0, 1]), float),
                              np.array(node.get("scale", [1, 1, 1]), float)])
        if t is not None:
            for node, path, times, values, interpolation in self.channels:
                if isinstance(local[node], np.ndarray):
                    continue
                value = R["evaluate"](times, values, interpolation, t, path == "rotation")
                local[node][{"translation": 0, "rotation": 1, "scale": 2}[path]] = value
        world = [None] * len(self.nodes)
        for i in self.order:
            m = local[i]
            if not isinstance(m, np.ndarray):
                trs = np.eye(4)
                trs[:3, :3] = R["rotation_matrix"](m[1]) * m[2]
                trs[:3, 3] = m[0]
                m = trs
            world[i] = m if self.parent[i] < 0 else world[self.parent[i]] @ m
        return world

    def vertex_sets(self, roots):
        """Every mesh's vertices as (joints, inverse binds, positions, joint slots, weights), and
        per root the same for the vertices its subtree carries."""
        inside = {side: self.below(root) for side, root in roots.items()}
        every, feet = [], {side: [] for side in roots}
        for index, node in enumerate(self.nodes):
            if "mesh" not in node:
                continue
            for primitive in self.doc["meshes"][node["mesh"]]["primitives"]:
                positions = self.read(primitive["attributes"]["POSITION"])
                if "skin" in node:
                    skin = self.doc["skins"][node["skin"]]
                    joints = skin["joints"]
                    binds = self.read(skin["inverseBindMatrices"]).reshape(-1, 4, 4).transpose(0, 2, 1)
                    slots = self.read(primitive["attributes"]["JOINTS_0"]).astype(int)
                    weights = self.read(primitive["attributes"]["WEIGHTS_0"])
                    strongest = np.array(joints)[slots[np.arange(len(slots)), weights.argmax(1)]]
                else:
                    joints, binds = [index], np.eye(4)[None]
                    slots, weights = np.zeros((len(positions), 1), int), np.ones((len(positions), 1))
                    strongest = np.full(len(positions), index)
                every.append((joints, binds, positions, slots, weights))
                for side in roots:
                    mask = np.array([j in inside[side] for j in strongest])
                    if mask.any():
                        feet[side].append((joints, binds, positions[mask], slots[mask], weights[mask]))
        return every, feet


def posed_heights(world, vertex_set):
    joints, binds, positions, slots, weights = vertex_set
    matrices = np.array([world[j] for j in joints]) @ binds
    homogeneous = np.c_[positions, np.ones(len(positions))]
    heights = np.zeros(len(positions))
    for k in range(slots.shape[1]):
        heights += weights[:, k] * np.einsum("nj,nj->n", matrices[slots[:, k], 1], homogeneous)
    return heights


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--clip", required=True)
    parser.add_argument("--source", required=True)
    parser.add_argument("--feet", required=True)
    parser.add_argument("--head", required=True)
    parser.add_argument("--source-feet", default="LeftFoot,LeftToeBase,RightFoot,RightToeBase")
    parser.add_argument("--source-head", default="Head")
    parser.add_argument("--fps", type=float, default=120.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        spec = J.spec_sample(args.out, args.clip, args.fps)
        source = J.spec_sample(args.source, args.clip, args.fps)
        contacts = source_contacts(source, args.fps, args.source_feet.split(","), args.source_head)
        names = spec["names"]
        roots = dict(zip(("left", "right"), (names.index(n) for n in args.feet.split(","))))
        head = names.index(args.head)
    except (J.UsageError, ValueError, KeyError) as error:
        print(f"feet_on_floor.py: {error}", file=sys.stderr)
        return 2
    character = Character(args.out, spec["anim_index"])
    every, feet = character.vertex_sets(roots)
    rest = character.world()
    floor = min(posed_heights(rest, v).min() for v in every)
    mm = 1750.0 / (rest[head][1, 3] - floor)
    frames = spec["frames"]
    sole = {side: np.zeros(frames) for side in roots}
    for f in range(frames):
        world = character.world(f / args.fps)
        for side in roots:
            sole[side][f] = (min(posed_heights(world, v).min() for v in feet[side]) - floor) * mm
    report = {"clip": args.clip, "frames": frames, "contacts": {}, "lowestMm": None, "lowestFrame": None}
    for side in roots:
        report["contacts"][side] = [
            [a, b] + [round(float(x), 2) for x in (sole[side][a:b + 1].min(), sole[side][a:b + 1].max(),
                                                    np.median(sole[side][a:b + 1]))]
            for a, b in contacts[side]]
    lowest_side = min(roots, key=lambda s: sole[s].min())
    report["lowestMm"] = round(float(sole[lowest_side].min()), 2)
    report["lowestFrame"] = int(sole[lowest_side].argmin())
    if args.json:
        print(json.dumps(report))
        return 0
    for side, spans in report["contacts"].items():
        for a, b, low, high, median in spans:
            print(f"{side:5s} contact {a:5d}-{b:<5d} sole {low:7.1f} .. {high:7.1f} mm, median {median:6.1f}")
    print(f"lowest foot point {report['lowestMm']:.1f} mm at frame {report['lowestFrame']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
