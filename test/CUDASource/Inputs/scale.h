// Found through -I by compile-options.cu.
#define SCALE_FROM_HEADER 3
