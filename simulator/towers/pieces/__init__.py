"""The 54 wooden pieces of Bandu: catalogue (shapes as convex parts), materials, meshes."""
