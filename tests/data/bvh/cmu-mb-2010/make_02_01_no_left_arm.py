# 02_01.bvh without the left arm (the LeftShoulder joint, its children and their motion
# columns), first 24 frames: a capture that misses a limb.
import sys
lines = open(sys.argv[1]).read().split('\n')
motion = next(i for i, l in enumerate(lines) if l.strip() == 'MOTION')
out, column, cut, depth, cut_depth = [], 0, [], 0, None
for line in lines[:motion]:
    words = line.split()
    if words[:2] == ['JOINT', 'LeftShoulder']:
        cut_depth = depth
    if words and words[0] == 'CHANNELS':
        n = int(words[1])
        if cut_depth is not None:
            cut.extend(range(column, column + n))
        column += n
    if cut_depth is None:
        out.append(line)
    if words == ['{']:
        depth += 1
    if words == ['}']:
        depth -= 1
        if cut_depth is not None and depth == cut_depth:
            cut_depth = None
frames = 24
out += ['MOTION', 'Frames: %d' % frames, lines[motion + 2]]
for line in lines[motion + 3: motion + 3 + frames]:
    values = line.split()
    out.append(' '.join(v for i, v in enumerate(values) if i not in cut))
open(sys.argv[2], 'w').write('\n'.join(out) + '\n')
