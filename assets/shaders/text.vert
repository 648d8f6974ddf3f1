#version 330 core
// Glyph quads lying on the board (coordinates), textured from pyglet's glyph atlas.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec2 a_uv;
uniform mat4 u_view_proj;
out vec2 v_uv;
void main() {
    v_uv = a_uv;
    gl_Position = u_view_proj * vec4(a_pos, 1.0);
}
