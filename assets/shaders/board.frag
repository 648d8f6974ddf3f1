#version 330 core
// The board each frame: the baked surface (or plain wood on the sides), the control-map
// overlay on the top face, soft stone shadows, and simple lighting with a faint varnish highlight.
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
uniform sampler2D u_surface;   // baked top face, or the wood texture for the sides
uniform sampler2D u_overlay;
uniform float u_overlay_on;
uniform sampler2D u_stones;    // size x size occupancy (1 = stone), bilinear: soft contact shadows
uniform vec2 u_shadow;         // shadow offset in grid units, away from the light
uniform float u_size;
uniform float u_side;
uniform vec3 u_light;          // direction towards the light
uniform vec3 u_eye;
out vec4 frag;

void main() {
    vec3 n = normalize(v_normal);
    vec3 l = normalize(u_light);
    float diff = max(dot(n, l), 0.0);
    vec4 surf = texture(u_surface, v_uv);
    vec3 col = surf.rgb;
    if (u_side > 0.5) {
        frag = vec4(col * 0.80 * (0.45 + 0.5 * diff), 1.0);
        return;
    }
    float h = (u_size - 1.0) * 0.5;
    vec2 g = vec2(v_world.x + h, h - v_world.z);
    float occ = texture(u_stones, (g - u_shadow + 0.5) / u_size).r;
    col *= 1.0 - 0.5 * occ * occ;
    vec3 v = normalize(u_eye - v_world);
    float spec = pow(max(dot(n, normalize(l + v)), 0.0), 40.0) * 0.07;
    col = col * (0.50 + 0.56 * diff) + spec;
    if (u_overlay_on > 0.5 && g.x > -0.5 && g.y > -0.5 && g.x < u_size - 0.5 && g.y < u_size - 0.5) {
        // one soft-edged tile per point (texelFetch: no smearing between Black and White points),
        // over the lit wood: White's tiles as white and Black's as dark wherever the light falls
        vec2 cell = floor(g + 0.5);
        vec4 o = texelFetch(u_overlay, ivec2(cell), 0);
        vec2 d2 = abs(g - cell);
        float d = max(d2.x, d2.y);
        float aa = max(fwidth(d), 1e-4);
        o.a *= 1.0 - smoothstep(0.46 - aa, 0.46 + aa, d);
        col = mix(col, o.rgb, o.a * surf.a);
    }
    frag = vec4(col, 1.0);
}
