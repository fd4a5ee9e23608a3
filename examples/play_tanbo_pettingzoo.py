"""One game of Tanbo between two random players through PettingZoo's AEC API:
`python examples/play_tanbo_pettingzoo.py`. Any game works: aec_env("bandida"), ("bunko") ..."""

import numpy as np

from simulator.envs import aec_env

env = aec_env("tanbo", size=7)
env.reset(seed=42)
rng = np.random.default_rng(42)
moves = 0
for agent in env.agent_iter():
    observation, reward, termination, truncation, info = env.last()
    if termination or truncation:
        action = None
        print(f"{agent}: reward {reward:+.0f}")
    else:
        legal = np.flatnonzero(observation["action_mask"])   # the rules' legal moves, in order
        action = int(rng.choice(legal))
        moves += 1
    env.step(action)
env.close()
print(f"{moves} moves played")
