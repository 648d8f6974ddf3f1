#version 330 core
// Baked once per board size into a 2048^2 texture (top-down orthographic pass):
// the wood of the playing surface with anti-aliased grid lines and star points (alpha: 1 - ink).
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
uniform sampler2D u_wood;
uniform float u_size;
uniform float u_line;          // line width in grid units
uniform vec2 u_stars[9];
uniform int u_nstars;
uniform float u_wood_scale;
out vec4 frag;

float coverage(float d, float w, float fw) {
    return clamp((w - d) / max(fw, 1e-5) + 0.5, 0.0, 1.0);
}

void main() {
    vec3 col = texture(u_wood, v_uv * u_wood_scale).rgb;
    float h = (u_size - 1.0) * 0.5;
    vec2 g = vec2(v_world.x + h, h - v_world.z);     // grid coordinates: column, row from the bottom
    float last = u_size - 1.0;
    vec2 fw = fwidth(g);
    vec2 d = abs(g - clamp(floor(g + 0.5), 0.0, last));
    float w = u_line * 0.5;
    float wb = w * 1.9;                               // the outer border is thicker
    float wx = (g.x < 0.5 || g.x > last - 0.5) ? wb : w;
    float wy = (g.y < 0.5 || g.y > last - 0.5) ? wb : w;
    float span_v = coverage(max(-g.y, g.y - last), wb, fw.y);    // lines stop at the border
    float span_h = coverage(max(-g.x, g.x - last), wb, fw.x);
    float cov = max(coverage(d.x, wx, fw.x) * span_v, coverage(d.y, wy, fw.y) * span_h);
    for (int i = 0; i < u_nstars; i++) {
        cov = max(cov, coverage(length(g - u_stars[i]), 0.1, fw.x));
    }
    col = mix(col, vec3(0.09, 0.06, 0.03), cov * 0.92);
    frag = vec4(col, 1.0 - cov);    // alpha = no ink: the overlay is laid under the lines
}
