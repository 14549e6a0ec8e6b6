# Writes OUTPUT: one {"name", R"(text)"} initializer per file of HEADERS.
set(CONTENT "// Generated from lib/CUDASource/include by EmbedHeaders.cmake.\n")
string(REPLACE "|" ";" HEADERS "${HEADERS}")
foreach(HEADER ${HEADERS})
  get_filename_component(NAME ${HEADER} NAME)
  file(READ ${HEADER} TEXT)
  string(APPEND CONTENT "{\"${NAME}\", R\"ptxjit_embed(${TEXT})ptxjit_embed\"},\n")
endforeach()
file(WRITE ${OUTPUT} "${CONTENT}")
