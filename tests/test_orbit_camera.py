"""The orbit camera's home (render/camera.py): a view that is resized refits when the camera is
at home, however its glide home ended; a camera the player moved stays where it was put."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui


@pytest.fixture
def OrbitCamera(x_display):                  # pyglet's key module needs a display to import
    from simulator.render.camera import OrbitCamera

    return OrbitCamera


def test_a_camera_at_home_follows_a_new_home_distance_even_a_full_turn_on(OrbitCamera):
    from pyglet.math import Vec3

    camera = OrbitCamera(yaw=-90.0, pitch=50.0, distance=2.0, target=Vec3(0.0, 0.07, 0.0))
    camera.yaw = 270.0                    # where a glide home from yaw 200 ends
    camera.set_home(3.0)
    assert camera.distance == 3.0


def test_a_camera_the_player_moved_keeps_its_place_when_home_changes(OrbitCamera):
    camera = OrbitCamera(yaw=-90.0, pitch=50.0, distance=2.0)
    camera.yaw = 10.0
    camera.set_home(3.0)
    assert camera.distance == 2.0
    camera.reset()
    while camera.gliding:
        camera.update(0.1)
    assert camera.distance == 3.0


def test_a_glide_to_a_distance_worked_out_with_numpy_still_projects(OrbitCamera):
    """A tower topped by an exact cylinder gave its height as a numpy scalar, and pyglet's Vec3
    cannot be multiplied by one: the first frame of the glide raised IndexError."""
    import numpy as np
    from pyglet.math import Vec3

    from simulator.towers.physics.world import _cylinder_span

    low, high = _cylinder_span(0.5, (0.0, 0.0, 0.0, 1.0), 15.0, 60.0)
    assert type(low) is float and type(high) is float
    camera = OrbitCamera(yaw=-90.0, pitch=50.0, distance=2.0)
    camera.glide_to(Vec3(0.0, 0.0, 0.3), distance=np.float64(1.3), yaw=np.float64(10.0))
    camera.update(0.05)
    assert type(camera.distance) is float
    assert camera.to_screen(Vec3(0.0, 0.0, 0.0), (0, 0, 800, 560)) is not None
