"""What a 3D view needs for its own draw pass: a pass that owns viewport, projection and depth
test and gives them back, and a lit shader for coloured solids.

`view_pass(window, area, camera)` confines drawing to the view's area (viewport and scissor),
clears depth there, turns the depth test on and sets the window's projection and view matrices
(the `WindowBlock` every pyglet shader reads) from the camera; on leaving, the 2D state the
panel and overlays expect is back. `camera_pass` does the same in whatever viewport and
framebuffer are bound (an offscreen picture, render/offscreen.py). `SolidShader` draws triangles with per-vertex colour and
normal under one directional light and an ambient term; `box_triangles` makes a box for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pyglet import gl
from pyglet.graphics import Batch, Group
from pyglet.graphics.shader import Shader, ShaderProgram

from simulator.render.camera import OrbitCamera
from simulator.render.screen import clear_colour

_VERTEX = """#version 330 core
in vec3 position;
in vec3 normal;
in vec4 colour;
out vec3 v_normal;
out vec4 v_colour;
uniform WindowBlock { mat4 projection; mat4 view; } window;
void main() {
    gl_Position = window.projection * window.view * vec4(position, 1.0);
    v_normal = normal;
    v_colour = colour;
}
"""
_FRAGMENT = """#version 330 core
in vec3 v_normal;
in vec4 v_colour;
out vec4 frag;
uniform vec3 light_direction;
void main() {
    float diffuse = max(dot(normalize(v_normal), normalize(-light_direction)), 0.0);
    frag = vec4(v_colour.rgb * (0.35 + 0.65 * diffuse), v_colour.a);
}
"""


@contextmanager
def view_pass(window: Any, area: tuple[float, float, float, float], camera: OrbitCamera,
              background: tuple[float, float, float] | None = None) -> Iterator[None]:
    """Drawing confined to the view's area of the window with the camera's matrices;
    `background`: fill the area with this colour first."""
    x, y, width, height = area
    ratio = window.get_pixel_ratio()
    box = (int(x * ratio), int(y * ratio), max(1, int(width * ratio)), max(1, int(height * ratio)))
    gl.glViewport(*box)
    gl.glEnable(gl.GL_SCISSOR_TEST)
    gl.glScissor(*box)
    try:
        with camera_pass(window, width / max(height, 1.0), camera, background):
            yield
    finally:
        gl.glDisable(gl.GL_SCISSOR_TEST)
        gl.glViewport(0, 0, *window.get_framebuffer_size())


@contextmanager
def camera_pass(window: Any, aspect: float, camera: OrbitCamera,
                background: tuple[float, float, float] | None = None,
                clear: bool = True) -> Iterator[None]:
    """The camera's projection and view in the window's matrices (which every pyglet shader
    reads), depth cleared (unless not `clear`: drawing on a restored layer) and tested, in the
    viewport and framebuffer already bound (the window's, or an offscreen picture's); the
    window's matrices are back on leaving."""
    projection, view = window.projection, window.view
    if clear and background is not None:
        gl.glClearColor(*background, 1.0)
        gl.glClear(gl.GL_DEPTH_BUFFER_BIT | gl.GL_COLOR_BUFFER_BIT)
        gl.glClearColor(*clear_colour())
    elif clear:
        gl.glClear(gl.GL_DEPTH_BUFFER_BIT)
    gl.glEnable(gl.GL_DEPTH_TEST)
    window.projection = camera.projection(aspect)
    window.view = camera.view_matrix()
    try:
        yield
    finally:
        window.projection, window.view = projection, view
        gl.glDisable(gl.GL_DEPTH_TEST)


class SolidShader:
    """A shader program for lit, coloured triangles (one per GL context: make it in the view)."""

    def __init__(self, light_direction: tuple[float, float, float] = (-0.4, -0.3, -1.0)) -> None:
        self.program = ShaderProgram(Shader(_VERTEX, "vertex"), Shader(_FRAGMENT, "fragment"))
        self.program["light_direction"] = light_direction
        self.group = _ProgramGroup(self.program)

    def add(self, batch: Batch, triangles: tuple[list[float], list[float], list[float]]) -> Any:
        positions, normals, colours = triangles
        return self.program.vertex_list(len(positions) // 3, gl.GL_TRIANGLES, batch=batch,
                                        group=self.group, position=("f", positions),
                                        normal=("f", normals), colour=("f", colours))

    def delete(self) -> None:
        self.program.delete()


class _ProgramGroup(Group):
    def __init__(self, program: ShaderProgram) -> None:
        super().__init__()
        self.program = program

    def set_state(self) -> None:
        self.program.use()

    def unset_state(self) -> None:
        self.program.stop()


_FACES = (  # normal, then the four corners as signs of the half sizes
    ((1, 0, 0), ((1, -1, -1), (1, 1, -1), (1, 1, 1), (1, -1, 1))),
    ((-1, 0, 0), ((-1, 1, -1), (-1, -1, -1), (-1, -1, 1), (-1, 1, 1))),
    ((0, 1, 0), ((1, 1, -1), (-1, 1, -1), (-1, 1, 1), (1, 1, 1))),
    ((0, -1, 0), ((-1, -1, -1), (1, -1, -1), (1, -1, 1), (-1, -1, 1))),
    ((0, 0, 1), ((-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1))),
    ((0, 0, -1), ((-1, 1, -1), (1, 1, -1), (1, -1, -1), (-1, -1, -1))),
)


def box_triangles(centre: tuple[float, float, float], size: tuple[float, float, float],
                  colour: tuple[float, float, float, float]) -> tuple[list[float], list[float], list[float]]:
    """Positions, normals and colours of an axis-aligned box as 12 triangles."""
    positions: list[float] = []
    normals: list[float] = []
    for normal, corners in _FACES:
        points = [tuple(c + s * h / 2 for c, s, h in zip(centre, signs, size, strict=True)) for signs in corners]
        for index in (0, 1, 2, 0, 2, 3):
            positions.extend(points[index])
            normals.extend(normal)
    return positions, normals, list(colour) * (len(positions) // 3)
