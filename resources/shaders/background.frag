#version 330 core
in float vHeight;
uniform vec3 uTopColor;     // display (sRGB) values
uniform vec3 uBottomColor;
out vec4 fragColor;

void main() {
  fragColor = vec4(mix(uBottomColor, uTopColor, smoothstep(0.0, 1.0, vHeight)), 1.0);
}
