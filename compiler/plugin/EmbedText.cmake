# cmake -DINPUT=<text file> -DOUTPUT=<file.inc> -P EmbedText.cmake
#
# Writes INPUT as one C++ raw string literal, for
#   constexpr char Text[] =
#   #include "file.inc"
#   ;
file(READ ${INPUT} TEXT)
set(DELIMITER "snag_text") # at most 16 characters
string(FIND "${TEXT}" ")${DELIMITER}\"" CLASH)
if(NOT CLASH EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw string delimiter ${DELIMITER}")
endif()
file(WRITE ${OUTPUT} "R\"${DELIMITER}(${TEXT})${DELIMITER}\"\n")
