# Embeds every file under data/kb into the binary as byte arrays (gen/kb_embedded.cpp),
# so the installed torchsmith carries its knowledge base with it.
file(GLOB_RECURSE TS_KB_FILES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/data/kb/*.toml)
set(TS_KB_EMBED_CPP ${PROJECT_BINARY_DIR}/gen/kb_embedded.cpp)
add_custom_command(
  OUTPUT ${TS_KB_EMBED_CPP}
  COMMAND ${CMAKE_COMMAND} -DKB_DIR=${PROJECT_SOURCE_DIR}/data/kb -DOUT=${TS_KB_EMBED_CPP}
          -P ${PROJECT_SOURCE_DIR}/cmake/embed_kb_script.cmake
  DEPENDS ${TS_KB_FILES} ${PROJECT_SOURCE_DIR}/cmake/embed_kb_script.cmake
  COMMENT "Embedding data/kb")
