#version 330 core
// Glyph quads lying on the board (coordinates), textured from pyglet's glyph atlas. Each label
// grows about its anchor until it is u_min_px high on screen, at most a_grow times its base
// size each way (the margin's room): the far edge of a tilted board is foreshortened and far.
layout(location = 0) in vec3 a_anchor;  // the label's centre on the board
layout(location = 2) in vec3 a_offset;  // this vertex from the anchor, at the base size
layout(location = 1) in vec2 a_uv;
layout(location = 3) in vec2 a_grow;    // the most it may grow in width and in height
uniform mat4 u_view_proj;
uniform vec2 u_viewport;  // the view's size in pixels
uniform float u_min_px;
uniform float u_height;   // a label's height at the base size (along -z, the glyphs' up)
out vec2 v_uv;
void main() {
    v_uv = a_uv;
    vec4 a = u_view_proj * vec4(a_anchor, 1.0);
    vec4 b = u_view_proj * vec4(a_anchor + vec3(0.0, 0.0, -u_height), 1.0);
    float px = length((b.xy / b.w - a.xy / a.w) * 0.5 * u_viewport);
    float s = max(u_min_px / max(px, 1e-3), 1.0);
    vec2 g = clamp(vec2(s), vec2(1.0), max(a_grow, vec2(1.0)));
    gl_Position = u_view_proj * vec4(a_anchor + a_offset * vec3(g.x, 1.0, g.y), 1.0);
}
