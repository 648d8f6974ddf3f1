#version 330 core
// Stones as ray-cast impostors: each instance is the stone's bounding box (12 triangles);
// the fragment shader intersects the view ray with the stone's ellipsoid.
layout(location = 0) in vec3 a_pos;          // unit box corner in [-1, 1]^3
layout(location = 2) in vec3 i_center;
layout(location = 3) in vec4 i_color;
uniform mat4 u_view_proj;
uniform vec3 u_radii;                        // stone radius, half height, radius
out vec3 v_world;
flat out vec3 v_center;
flat out vec4 v_color;
void main() {
    v_world = i_center + a_pos * u_radii * 1.02;
    v_center = i_center;
    v_color = i_color;
    gl_Position = u_view_proj * vec4(v_world, 1.0);
}
