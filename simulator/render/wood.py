"""Lit wood for 3D views: a warm key light with soft shadows (a shadow map read at 16 texels around each point,
four at a time where the GL has texture gather),
a hemisphere of room light, procedural wood grain, lacquer gloss, and see-through ghosts.

A view lists what it draws as `Drawn(mesh, model, surface, moving)` items (model: a 4x4 matrix,
column major as pyglet's Mat4; surface: colour, grain, gloss, alpha) and calls
`render_shadows(items, still_version)` when something moved (outside its view pass: it uses
its own framebuffers and viewport; the shadows of what is not `moving` are redrawn only when
`still_version` changes) and `draw(items, eye)` inside a camera pass (render/pass3d.py). The grain is
computed from each mesh's own coordinates, so it moves with the piece: rings around the grain
axis (the piece's longest), stretched along it, with fine streaks.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterable
from dataclasses import dataclass

from pyglet import gl
from pyglet.graphics.shader import Shader, ShaderProgram
from pyglet.math import Mat4, Vec3

from simulator.render.gpu_meshes import GpuMesh

_LIT_VERTEX = """#version 330 core
layout(location = 0) in vec3 position;
layout(location = 1) in vec3 normal;
uniform WindowBlock { mat4 projection; mat4 view; } window;
uniform mat4 model;
uniform mat4 light_space;
out vec3 v_world;
out vec3 v_local;
out vec3 v_normal;
out vec4 v_light;
void main() {
    vec4 world = model * vec4(position, 1.0);
    v_world = world.xyz;
    v_local = position;
    v_normal = mat3(model) * normal;
    v_light = light_space * world;
    gl_Position = window.projection * window.view * world;
}
"""

_LIT_FRAGMENT = """#version 330 core
#extension GL_ARB_texture_gather : enable
in vec3 v_world;
in vec3 v_local;
in vec3 v_normal;
in vec4 v_light;
out vec4 frag;
uniform sampler2D shadow_map;         // depth as the light sees it
uniform float shadow_texel;
uniform vec3 light_towards;      // unit vector towards the key light
uniform vec3 light_colour;
uniform vec3 eye;
uniform vec3 base_colour;        // sRGB
uniform float grain;             // 0: plain, 1: wood grain
uniform vec3 grain_axis;         // in the mesh's frame
uniform float ring_spacing;      // metres between growth rings
uniform float gloss;             // 0: oiled wood, 1: lacquer
uniform float alpha;
uniform float shadowed;          // 0: draw without receiving shadows (ghosts)

float hash(vec3 p) {
    p = fract(p * 0.3183099 + vec3(0.71, 0.113, 0.419));
    p *= 17.0;
    return fract(p.x * p.y * p.z * (p.x + p.y + p.z));
}
float noise(vec3 p) {
    vec3 i = floor(p);
    vec3 f = fract(p);
    f = f * f * (3.0 - 2.0 * f);
    return mix(mix(mix(hash(i), hash(i + vec3(1, 0, 0)), f.x),
                   mix(hash(i + vec3(0, 1, 0)), hash(i + vec3(1, 1, 0)), f.x), f.y),
               mix(mix(hash(i + vec3(0, 0, 1)), hash(i + vec3(1, 0, 1)), f.x),
                   mix(hash(i + vec3(0, 1, 1)), hash(i + vec3(1, 1, 1)), f.x), f.y), f.z);
}
vec3 to_linear(vec3 c) { return pow(c, vec3(2.2)); }

void main() {
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing) n = -n;
    vec3 colour = to_linear(base_colour);
    if (grain > 0.5) {
        vec3 p = v_local / ring_spacing;
        float along = dot(p, grain_axis);
        vec3 across = p - grain_axis * along + vec3(7.3, -3.1, 5.7);
        float wobble = noise(vec3(along * 0.08, across.yz * 0.35)) * 2.2;
        float rings = fract(length(across.xy + across.z * 0.35) + wobble);
        float late = smoothstep(0.55, 0.8, rings) * (1.0 - smoothstep(0.9, 1.0, rings));
        float streaks = noise(vec3(along * 0.15, across.x * 9.0, across.y * 9.0));
        colour *= (1.0 - 0.28 * late) * (0.92 + 0.12 * streaks);
    }
    float lit = 1.0;
    if (shadowed > 0.5) {
        vec3 projected = v_light.xyz / v_light.w * 0.5 + 0.5;
        if (projected.z < 1.0 && all(greaterThan(projected.xy, vec2(0.0))) && all(lessThan(projected.xy, vec2(1.0)))) {
            float slope = 1.0 - max(dot(n, light_towards), 0.0);
            float bias = 0.0006 + 0.0025 * slope;
            float depth = projected.z - bias;
#ifdef GL_ARB_texture_gather
            // the same 4 x 4 texels, four at a time: a gather a texel either side of the point
            // returns the two texels that the nearest taps at 0.5 and 1.5 texels that side read
            vec4 lit4 = vec4(0.0);
            for (int x = 0; x < 2; x++)
                for (int y = 0; y < 2; y++)
                    lit4 += step(vec4(depth), textureGather(shadow_map, projected.xy + (vec2(x, y) * 2.0 - 1.0) * shadow_texel));
            lit = dot(lit4, vec4(1.0 / 16.0));
#else
            lit = 0.0;
            for (int x = 0; x < 4; x++)
                for (int y = 0; y < 4; y++)
                    lit += step(depth, texture(shadow_map, projected.xy + (vec2(x, y) - 1.5) * shadow_texel).r);
            lit /= 16.0;
#endif
        }
    }
    vec3 view_dir = normalize(eye - v_world);
    float diffuse = max(dot(n, light_towards), 0.0);
    vec3 sky = vec3(0.24, 0.22, 0.21);
    vec3 ground = vec3(0.09, 0.07, 0.055);
    vec3 ambient = mix(ground, sky, n.z * 0.5 + 0.5);
    vec3 halfway = normalize(light_towards + view_dir);
    float shininess = mix(18.0, 90.0, gloss);
    float specular = pow(max(dot(n, halfway), 0.0), shininess) * mix(0.05, 0.55, gloss);
    float rim = pow(1.0 - max(dot(n, view_dir), 0.0), 4.0) * 0.08;
    vec3 light = colour * (ambient + light_colour * diffuse * lit) + light_colour * specular * lit + rim * sky;
    light = light / (light + vec3(0.85)) * 1.85;           // a soft shoulder, no clipped whites
    frag = vec4(pow(light, vec3(1.0 / 2.2)), alpha);
}
"""

_DEPTH_VERTEX = """#version 330 core
layout(location = 0) in vec3 position;
uniform mat4 model;
uniform mat4 light_space;
void main() { gl_Position = light_space * model * vec4(position, 1.0); }
"""
_DEPTH_FRAGMENT = """#version 330 core
void main() {}
"""


LAMP_TOWARDS = Vec3(-0.5, -0.75, 0.85)          # from the table towards the lamp, up and to the left


@dataclass(frozen=True)
class Surface:
    colour: tuple[float, float, float]          # sRGB 0..1
    grain: bool = False
    grain_axis: tuple[float, float, float] = (1.0, 0.0, 0.0)
    ring_spacing: float = 0.004                 # metres
    gloss: float = 0.0
    alpha: float = 1.0
    casts_shadow: bool = True


@dataclass
class Drawn:
    mesh: GpuMesh
    model: Mat4
    surface: Surface
    moving: bool = False        # its shadow is drawn every time; the others' only when they change


class WoodRenderer:
    """The lit program, the shadow program and the shadow map of one 3D view (one GL context)."""

    def __init__(self, centre: Vec3, radius: float, light_towards: Vec3 = LAMP_TOWARDS,
                 shadow_size: int = 1024) -> None:
        self.lit = ShaderProgram(Shader(_LIT_VERTEX, "vertex"), Shader(_LIT_FRAGMENT, "fragment"))
        self.depth = ShaderProgram(Shader(_DEPTH_VERTEX, "vertex"), Shader(_DEPTH_FRAGMENT, "fragment"))
        self.light_towards = light_towards.normalize()
        self.shadow_size = shadow_size
        eye = centre + self.light_towards * (radius * 2.0)
        up = Vec3(0.0, 0.0, 1.0) if abs(self.light_towards.z) < 0.99 else Vec3(0.0, 1.0, 0.0)
        view = Mat4.look_at(eye, centre, up)
        projection = Mat4.orthogonal_projection(-radius, radius, -radius, radius, radius * 0.1, radius * 4.0)
        self.light_space = projection @ view
        self._texture, self._framebuffer = gl.GLuint(), gl.GLuint()
        self._make_shadow_map()
        self._still_texture, self._still_framebuffer = gl.GLuint(), gl.GLuint()
        self._make_shadow_map(still=True)
        self._still_version: object = None
        program = self.lit
        program.use()
        program["shadow_map"] = 1
        program["shadow_texel"] = 1.0 / shadow_size
        program["light_towards"] = tuple(self.light_towards)
        program["light_colour"] = (1.05, 0.9, 0.72)           # a warm lamp
        program["light_space"] = self.light_space
        program.stop()
        self.depth.use()
        self.depth["light_space"] = self.light_space
        self.depth.stop()

    def _make_shadow_map(self, still: bool = False) -> None:
        size = self.shadow_size
        texture, framebuffer = ((self._still_texture, self._still_framebuffer) if still
                                else (self._texture, self._framebuffer))
        gl.glGenTextures(1, ctypes.byref(texture))
        gl.glBindTexture(gl.GL_TEXTURE_2D, texture)
        gl.glTexImage2D(gl.GL_TEXTURE_2D, 0, gl.GL_DEPTH_COMPONENT24, size, size, 0,
                        gl.GL_DEPTH_COMPONENT, gl.GL_FLOAT, None)
        # compared in the shader (pyglet has no setter for sampler2DShadow uniforms)
        for name, value in ((gl.GL_TEXTURE_MIN_FILTER, gl.GL_NEAREST), (gl.GL_TEXTURE_MAG_FILTER, gl.GL_NEAREST),
                            (gl.GL_TEXTURE_WRAP_S, gl.GL_CLAMP_TO_EDGE), (gl.GL_TEXTURE_WRAP_T, gl.GL_CLAMP_TO_EDGE),
                            (gl.GL_TEXTURE_COMPARE_MODE, gl.GL_NONE)):
            gl.glTexParameteri(gl.GL_TEXTURE_2D, name, value)
        gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
        gl.glGenFramebuffers(1, ctypes.byref(framebuffer))
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, framebuffer)
        gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_DEPTH_ATTACHMENT, gl.GL_TEXTURE_2D, texture, 0)
        gl.glDrawBuffer(gl.GL_NONE)
        gl.glReadBuffer(gl.GL_NONE)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def render_shadows(self, items: list[Drawn], still_version: object = None) -> None:
        """Draw the depth of everything that casts a shadow as the light sees it. The items not
        `moving` are drawn into a map of their own only when `still_version` changes; each call
        copies that map and adds the moving ones (a collapsing tower's pieces)."""
        casters = [item for item in items if item.surface.casts_shadow and item.surface.alpha >= 1.0]
        size = self.shadow_size
        if still_version is None or still_version != self._still_version:
            self._depth_pass(self._still_framebuffer, [item for item in casters if not item.moving])
            self._still_version = still_version
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, self._still_framebuffer)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, self._framebuffer)
        gl.glBlitFramebuffer(0, 0, size, size, 0, 0, size, size, gl.GL_DEPTH_BUFFER_BIT, gl.GL_NEAREST)
        self._depth_pass(self._framebuffer, [item for item in casters if item.moving], clear=False)

    def _depth_pass(self, framebuffer: gl.GLuint, items: list[Drawn], clear: bool = True) -> None:
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, framebuffer)
        gl.glViewport(0, 0, self.shadow_size, self.shadow_size)
        gl.glEnable(gl.GL_DEPTH_TEST)
        if clear:
            gl.glClear(gl.GL_DEPTH_BUFFER_BIT)
        gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)
        gl.glPolygonOffset(1.5, 3.0)
        program = self.depth
        program.use()
        for item in items:
            program["model"] = item.model
            item.mesh.draw()
        program.stop()
        gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)
        gl.glDisable(gl.GL_DEPTH_TEST)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def draw(self, items: Iterable[Drawn], eye: Vec3, still_shadows: bool = False) -> None:
        """Draw lit, shadowed items; see-through ones last, each showing its nearest surface. Call
        inside a camera pass (viewport, projection and depth test set). `still_shadows`: shadowed by
        what stands still only (a layer that moving things are drawn over)."""
        program = self.lit
        program.use()
        program["eye"] = tuple(eye)
        gl.glActiveTexture(gl.GL_TEXTURE1)
        gl.glBindTexture(gl.GL_TEXTURE_2D, self._still_texture if still_shadows else self._texture)
        solid: list[Drawn] = []
        clear: list[Drawn] = []
        for item in items:
            (solid if item.surface.alpha >= 1.0 else clear).append(item)
        gl.glEnable(gl.GL_CULL_FACE)                  # closed meshes: their back faces never show
        for item in solid:
            self._draw_one(item)
        gl.glDisable(gl.GL_CULL_FACE)
        if clear:
            # each see-through item shows only its nearest surface, blended once: its depth
            # first (no colour), then its colour where it is that near; drawn in one pass, a
            # ghost showed its inner and back faces through its front (the washer's saw-tooth)
            gl.glEnable(gl.GL_BLEND)
            gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
            gl.glDepthFunc(gl.GL_LEQUAL)
            for item in clear:
                gl.glColorMask(gl.GL_FALSE, gl.GL_FALSE, gl.GL_FALSE, gl.GL_FALSE)
                self._draw_one(item)
                gl.glColorMask(gl.GL_TRUE, gl.GL_TRUE, gl.GL_TRUE, gl.GL_TRUE)
                gl.glDepthMask(gl.GL_FALSE)
                self._draw_one(item)
                gl.glDepthMask(gl.GL_TRUE)
            gl.glDepthFunc(gl.GL_LESS)
        gl.glBindTexture(gl.GL_TEXTURE_2D, 0)
        gl.glActiveTexture(gl.GL_TEXTURE0)
        program.stop()

    def draw_over(self, items: Iterable[Drawn], eye: Vec3) -> None:
        """Draw items lying exactly on drawn surfaces (a patch of the table top, to receive the
        shadows of moving things there): they win the depth test where they coincide."""
        gl.glDepthFunc(gl.GL_LEQUAL)
        gl.glEnable(gl.GL_POLYGON_OFFSET_FILL)
        gl.glPolygonOffset(-1.0, -4.0)
        self.draw(items, eye)
        gl.glDisable(gl.GL_POLYGON_OFFSET_FILL)
        gl.glDepthFunc(gl.GL_LESS)

    def _draw_one(self, item: Drawn) -> None:
        program, surface = self.lit, item.surface
        program["model"] = item.model
        program["base_colour"] = surface.colour
        program["grain"] = 1.0 if surface.grain else 0.0
        program["grain_axis"] = surface.grain_axis
        program["ring_spacing"] = surface.ring_spacing
        program["gloss"] = surface.gloss
        program["alpha"] = surface.alpha
        program["shadowed"] = 1.0 if surface.alpha >= 1.0 else 0.0
        item.mesh.draw()

    def delete(self) -> None:
        for framebuffer, texture in ((self._framebuffer, self._texture),
                                     (self._still_framebuffer, self._still_texture)):
            gl.glDeleteFramebuffers(1, ctypes.byref(framebuffer))
            gl.glDeleteTextures(1, ctypes.byref(texture))
        self.lit.delete()
        self.depth.delete()


def pose_matrix(position: tuple[float, float, float], quaternion: tuple[float, float, float, float]) -> Mat4:
    """The model matrix of a rigid pose: position in metres, quaternion (x, y, z, w)."""
    x, y, z, w = quaternion
    norm = (x * x + y * y + z * z + w * w) ** 0.5 or 1.0
    x, y, z, w = x / norm, y / norm, z / norm, w / norm
    px, py, pz = position
    return Mat4(*(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w), 0.0,
                 2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w), 0.0,
                 2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y), 0.0,
                 px, py, pz, 1.0))
