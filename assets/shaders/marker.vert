#version 330 core
// Flat markers (rings, squares, discs, shadows) lying on the board or on a stone.
layout(location = 0) in vec2 a_corner;
layout(location = 1) in vec4 i_pos_size;     // xyz centre, w radius
layout(location = 2) in vec4 i_color;
layout(location = 3) in float i_shape;
uniform mat4 u_view_proj;
out vec2 v_corner;
out vec4 v_color;
flat out int v_shape;
void main() {
    v_corner = a_corner;
    v_color = i_color;
    v_shape = int(i_shape + 0.5);
    vec3 p = i_pos_size.xyz + vec3(a_corner.x, 0.0, -a_corner.y) * i_pos_size.w;
    gl_Position = u_view_proj * vec4(p, 1.0);
}
