# Driven by ctest: install, configure the consumers against the installed package, build, run.
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "command failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
  set(last_error "${err}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${MINIATEN_BUILD_DIR} --prefix ${prefix})
# The library's compiler and, in a sanitizer build, its sanitizer flags (a list: ';'-separated).
string(REPLACE ";" " " consumer_flags "${CONSUMER_FLAGS}")
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build -G ${CMAKE_GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CONSUMER_CXX_COMPILER} "-DCMAKE_CXX_FLAGS=${consumer_flags}"
    "-DCMAKE_EXE_LINKER_FLAGS=${consumer_flags}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
set(consumer_build_output "${last_output}\n${last_error}")

# The example out-of-tree backend, exactly as its README builds it.
run(${CMAKE_COMMAND} -S ${BACKEND_SOURCE_DIR} -B ${WORK_DIR}/backend -G ${CMAKE_GENERATOR}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_CXX_COMPILER=${CONSUMER_CXX_COMPILER} "-DCMAKE_CXX_FLAGS=${consumer_flags}"
    "-DCMAKE_SHARED_LINKER_FLAGS=${consumer_flags}" "-DCMAKE_EXE_LINKER_FLAGS=${consumer_flags}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/backend)

# compat_consumer is compiled with -H: each header it includes is a line ". /path" (dots for
# depth). Every libtorch-named path (ATen/, c10/, torch/, caffe2/) must come from the prefix.
string(REPLACE "\n" ";" header_lines "${consumer_build_output}")
set(compat_headers 0)
foreach(line IN LISTS header_lines)
  if(line MATCHES "^\\.+ (.+)$")
    get_filename_component(header "${CMAKE_MATCH_1}" REALPATH)
    if(header MATCHES "/torch-compat/")
      math(EXPR compat_headers "${compat_headers} + 1")
    endif()
    if(header MATCHES "/(ATen|c10|torch|caffe2)/" AND NOT header MATCHES "^${prefix}/")
      message(FATAL_ERROR "the compat consumer included a header from outside miniaten: ${header}")
    endif()
  endif()
endforeach()
if(compat_headers EQUAL 0)
  message(FATAL_ERROR "the compat consumer's build listed no torch-compat header (-H output missing?)")
endif()

run(${WORK_DIR}/build/consumer)
message(STATUS "consumer said:\n${last_output}")
if(NOT last_output MATCHES "consumer ok")
  message(FATAL_ERROR "the consumer did not report success")
endif()
run(${WORK_DIR}/build/compat_consumer)
message(STATUS "compat consumer said:\n${last_output}")
if(NOT last_output MATCHES "compat consumer ok")
  message(FATAL_ERROR "the compat consumer did not report success")
endif()
run(${WORK_DIR}/backend/npu_demo)
message(STATUS "npu backend said:\n${last_output}")
if(NOT last_output MATCHES "npu backend ok")
  message(FATAL_ERROR "the example npu backend did not report success")
endif()
