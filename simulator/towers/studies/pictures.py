"""Pictures of a study's towers, made without a window: the job is built again (its result
depends only on the job) and PyBullet's own software renderer (TinyRenderer, in the job's
DIRECT client) draws it as it ended, standing or fallen."""

from __future__ import annotations

import math

import numpy as np

from simulator.towers.physics.stability import TowerReport
from simulator.towers.physics.world import pybullet
from simulator.towers.studies.jobs import Job, built

WOOD = (0.80, 0.62, 0.40, 1.0)
WOOD_DARK = (0.62, 0.45, 0.28, 1.0)
TABLE = (0.36, 0.45, 0.40, 1.0)
LIGHT = (0.6, -0.8, 1.5)


def tower_picture(job: Job, width: int = 360, height: int = 480
                  ) -> tuple[np.ndarray, TowerReport]:
    """The job's tower at its end, as an RGB array (height x width x 3), and its verdict."""
    with built(job) as (world, report):
        client = world.client
        for number, body in enumerate(world.bodies()):
            client.changeVisualShape(body, -1, rgbaColor=WOOD if number % 2 else WOOD_DARK)
        client.changeVisualShape(world.table, -1, rgbaColor=TABLE)
        boxes = np.array([client.getAABB(body) for body in world.bodies()])  # (n, 2, 3)
        low, high = boxes[:, 0].min(axis=0), boxes[:, 1].max(axis=0)
        fov = 35.0
        radius = max(float(np.linalg.norm(high - low)) / 2, 0.05)   # a sphere around it all
        distance = radius / math.sin(math.radians(fov / 2)) * 1.05
        target = tuple(float(v) for v in (low + high) / 2)
        view = client.computeViewMatrixFromYawPitchRoll(target, distance, yaw=30.0, pitch=-15.0,
                                                        roll=0.0, upAxisIndex=2)
        projection = client.computeProjectionMatrixFOV(fov=fov, aspect=width / height,
                                                       nearVal=0.01, farVal=distance + 2.0)
        _, _, rgba, _, _ = client.getCameraImage(width, height, view, projection, shadow=1,
                                                 lightDirection=LIGHT,
                                                 renderer=pybullet.ER_TINY_RENDERER)
    image = np.reshape(np.asarray(rgba, dtype=np.uint8), (height, width, 4))
    return image[:, :, :3].copy(), report
