"""A random agent on Bandu's stacking environment, BanduStack-v0, for three episodes:
`python examples/stack_randomly.py`. Each step picks a piece of the reserve, one of its resting
faces and where to release it (x, y in mm from the tower's axis, and a turn in degrees); the
game's physics referee says whether the tower still stands."""

import gymnasium

import simulator.envs  # noqa: F401  (registers BanduStack-v0 and BanduStackTremor-v0)

env = gymnasium.make("BanduStack-v0")
env.action_space.seed(7)
for episode in range(3):
    observation, info = env.reset(seed=episode)
    score, terminated, truncated = 0.0, False, False
    while not (terminated or truncated):
        action = env.action_space.sample()
        action["pose"] = action["pose"] * 0.05          # a random hand, but near the axis
        observation, reward, terminated, truncated, info = env.step(action)
        score += float(reward)
    print(f"episode {episode}: {score:.0f} pieces stood, the tower "
          f"{'fell' if info['fell'] else 'stood to the end'} at {info['height_mm']:.0f} mm")
env.close()
