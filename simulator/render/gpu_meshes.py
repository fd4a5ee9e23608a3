"""Triangle meshes on the GPU for 3D views: one vertex array per mesh, drawn by any program whose
position is attribute 0 and normal attribute 1 (render/wood.py's lit and shadow programs).

`GpuMesh.from_arrays(positions, normals, indices)` uploads once; `draw()` draws it with the
program in use. `read_obj(text)` reads the visual meshes the piece assets carry (`v`, `vn` and
`f a//a` lines, as towers/pieces/build.py writes them); `MeshShelf` keeps one GpuMesh per name for a
GL context and frees them together.
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from pyglet import gl


@dataclass
class MeshData:
    positions: np.ndarray   # (n, 3) float32
    normals: np.ndarray     # (n, 3) float32
    indices: np.ndarray     # (m,) uint32, three per triangle

    @property
    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        return self.positions.min(axis=0), self.positions.max(axis=0)


def read_obj(text: str) -> MeshData:
    """A mesh from OBJ text with one normal per vertex (`v`, `vn`, and faces `f a b c` or
    `f a//a b//b c//c`; a polygon becomes a fan of triangles). The numbers are parsed by numpy
    in one go per kind of line: a game opens with 48 of these meshes to read."""
    lines = text.splitlines()
    positions = _numbers([line[2:] for line in lines if line.startswith("v ")], np.float32)
    normals = _numbers([line[3:] for line in lines if line.startswith("vn ")], np.float32)
    if len(normals) != len(positions):
        raise ValueError("the mesh needs one normal per vertex")
    rows = [line[2:] for line in lines if line.startswith("f ")]
    corners = np.array(re.sub(r"/\S*", "", " ".join(rows)).split(), np.int64) - 1
    if len(corners) != 3 * len(rows):                      # polygons, not only triangles
        polygons = [[int(word.partition("/")[0]) - 1 for word in row.split()] for row in rows]
        corners = np.array([(p[0], p[k], p[k + 1]) for p in polygons for k in range(1, len(p) - 1)],
                           np.int64)
    return MeshData(positions, normals, corners.astype(np.uint32).reshape(-1))


def _numbers(rows: list[str], dtype: type) -> np.ndarray:
    """Rows of three numbers (a fourth, such as a vertex's w, is dropped) as an (n, 3) array."""
    if not rows:
        return np.zeros((0, 3), dtype)
    flat: np.ndarray = np.array(" ".join(rows).split(), dtype)
    if len(flat) == 3 * len(rows):
        return flat.reshape(-1, 3)
    return np.array([row.split()[:3] for row in rows], dtype).reshape(-1, 3)


def box_mesh(half: tuple[float, float, float]) -> MeshData:
    """A box centred on the origin, flat-shaded (4 vertices per face)."""
    positions: list[list[float]] = []
    normals: list[list[float]] = []
    indices: list[int] = []
    for axis in range(3):
        for sign in (-1.0, 1.0):
            normal = [0.0, 0.0, 0.0]
            normal[axis] = sign
            u, v = (axis + 1) % 3, (axis + 2) % 3
            base = len(positions)
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                point = [0.0, 0.0, 0.0]
                point[axis], point[u], point[v] = sign * half[axis], a * half[u], b * half[v]
                positions.append(point)
                normals.append(normal)
            quad = (0, 1, 2, 0, 2, 3) if sign > 0 else (0, 2, 1, 0, 3, 2)
            indices += [base + k for k in quad]
    return MeshData(np.asarray(positions, np.float32), np.asarray(normals, np.float32),
                    np.asarray(indices, np.uint32))


def ellipsoid_mesh(radii: tuple[float, float, float], rings: int = 8, segments: int = 12) -> MeshData:
    """A smooth ellipsoid (a bean) centred on the origin."""
    positions, normals, indices = [], [], []
    for i in range(rings + 1):
        theta = np.pi * i / rings
        for j in range(segments + 1):
            phi = 2 * np.pi * j / segments
            unit = np.array([np.sin(theta) * np.cos(phi), np.sin(theta) * np.sin(phi), np.cos(theta)])
            positions.append(unit * radii)
            normal = unit / np.asarray(radii)
            normals.append(normal / max(np.linalg.norm(normal), 1e-9))
    for i in range(rings):
        for j in range(segments):
            a, b = i * (segments + 1) + j, (i + 1) * (segments + 1) + j
            indices += [a, b, a + 1, a + 1, b, b + 1]
    return MeshData(np.asarray(positions, np.float32), np.asarray(normals, np.float32),
                    np.asarray(indices, np.uint32))


def merged(parts: list[tuple[MeshData, np.ndarray]]) -> MeshData:
    """One mesh of several, each placed by its 4x4 rigid transform (drawn in one call)."""
    positions, normals, indices, offset = [], [], [], 0
    for data, transform in parts:
        rotation, shift = transform[:3, :3], transform[:3, 3]
        positions.append(data.positions @ rotation.T + shift)
        normals.append(data.normals @ rotation.T)
        indices.append(data.indices + offset)
        offset += len(data.positions)
    if not parts:
        return MeshData(np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32), np.zeros(0, np.uint32))
    return MeshData(np.vstack(positions).astype(np.float32), np.vstack(normals).astype(np.float32),
                    np.concatenate(indices).astype(np.uint32))


class GpuMesh:
    """A mesh's vertex array, vertex buffer (position, normal interleaved) and index buffer."""

    def __init__(self, data: MeshData) -> None:
        self.data = data
        self.count = len(data.indices)
        interleaved = np.ascontiguousarray(np.hstack([data.positions, data.normals]), np.float32)
        indices = np.ascontiguousarray(data.indices, np.uint32)
        self.vao, self.vbo, self.ebo = gl.GLuint(), gl.GLuint(), gl.GLuint()
        gl.glGenVertexArrays(1, ctypes.byref(self.vao))
        gl.glBindVertexArray(self.vao)
        gl.glGenBuffers(1, ctypes.byref(self.vbo))
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self.vbo)
        gl.glBufferData(gl.GL_ARRAY_BUFFER, interleaved.nbytes,
                        interleaved.ctypes.data_as(ctypes.c_void_p), gl.GL_STATIC_DRAW)
        stride = 6 * 4
        for location, offset in ((0, 0), (1, 12)):
            gl.glEnableVertexAttribArray(location)
            gl.glVertexAttribPointer(location, 3, gl.GL_FLOAT, gl.GL_FALSE, stride, ctypes.c_void_p(offset))
        gl.glGenBuffers(1, ctypes.byref(self.ebo))
        gl.glBindBuffer(gl.GL_ELEMENT_ARRAY_BUFFER, self.ebo)
        gl.glBufferData(gl.GL_ELEMENT_ARRAY_BUFFER, indices.nbytes,
                        indices.ctypes.data_as(ctypes.c_void_p), gl.GL_STATIC_DRAW)
        gl.glBindVertexArray(0)

    def draw(self) -> None:
        if not self.count:
            return
        gl.glBindVertexArray(self.vao)
        gl.glDrawElements(gl.GL_TRIANGLES, self.count, gl.GL_UNSIGNED_INT, None)
        gl.glBindVertexArray(0)

    def delete(self) -> None:
        if self.vao:
            gl.glDeleteBuffers(1, ctypes.byref(self.vbo))
            gl.glDeleteBuffers(1, ctypes.byref(self.ebo))
            gl.glDeleteVertexArrays(1, ctypes.byref(self.vao))
            self.vao = gl.GLuint()


class MeshShelf:
    """One GpuMesh per name, made on first use by `make(name)`; `delete()` frees them all."""

    def __init__(self, make: Callable[[str], MeshData]) -> None:
        self._make = make
        self._meshes: dict[str, GpuMesh] = {}

    def get(self, name: str) -> GpuMesh:
        mesh = self._meshes.get(name)
        if mesh is None:
            mesh = self._meshes[name] = GpuMesh(self._make(name))
        return mesh

    def delete(self) -> None:
        for mesh in self._meshes.values():
            mesh.delete()
        self._meshes.clear()
