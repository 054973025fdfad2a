# cmake -DFIRST=program -DSECOND=program -P same_output.cmake: runs both programs and fails
# unless both succeed and print the same, non-empty output.
foreach(program FIRST SECOND)
  execute_process(COMMAND ${${program}} OUTPUT_VARIABLE out_${program} RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${${program}} failed: ${code}")
  endif()
  message(STATUS "${${program}}: ${out_${program}}")
endforeach()
if(out_FIRST STREQUAL "" OR NOT out_FIRST STREQUAL out_SECOND)
  message(FATAL_ERROR "the outputs differ:\n${FIRST}: ${out_FIRST}${SECOND}: ${out_SECOND}")
endif()
