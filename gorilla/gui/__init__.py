"""The 3D desktop window (pyglet, OpenGL 3.3): camera, geometry, scene, renderer, HUD and window."""
