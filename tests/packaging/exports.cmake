# Every function and datum the public headers declare is exported by the
# shared library, and nothing else is: the library is built with hidden
# visibility, so a public declaration without BSIM_API would compile and
# link in the tests (static library) yet be missing for installed
# programs and plugins. Run with -DHEADERS=<include/blocksim>
# -DLIB=<libblocksim.so> -DNM=<nm>.
cmake_policy(SET CMP0057 NEW) # IN_LIST
file(GLOB headers "${HEADERS}/*.h" "${HEADERS}/*.h.in")
set(declared "")
foreach(h ${headers})
  file(READ "${h}" text)
  # "[" would confuse CMake lists; "name[" (data) reads as "name(" here
  string(REPLACE "[" "(" text "${text}")
  # declarations start a line: [BSIM_API] [extern] type [*]name(, the
  # name possibly on the next line (clang-format's style for long ones)
  string(REGEX MATCHALL
    "\n(BSIM_API )?(extern )?(const |unsigned )?[A-Za-z_][A-Za-z0-9_]*[ \n]\\**\n?bsim_[a-z0-9_]+\\("
    found "${text}")
  foreach(d ${found})
    string(REGEX MATCH "bsim_[a-z0-9_]+\\($" name "${d}")
    string(REGEX REPLACE "\\($" "" name "${name}")
    if(name STREQUAL "bsim_plugin_init")
      continue() # the plugin's entry point, not the library's
    endif()
    if(NOT d MATCHES "BSIM_API")
      get_filename_component(hn "${h}" NAME)
      message(SEND_ERROR "${hn}: ${name} is declared without BSIM_API "
        "(hint: public declarations start with BSIM_API, see export.h)")
    endif()
    list(APPEND declared ${name})
  endforeach()
endforeach()
list(REMOVE_DUPLICATES declared)
list(LENGTH declared n)
if(n LESS 100)
  message(FATAL_ERROR "only ${n} public declarations found: the scan is broken")
endif()

execute_process(COMMAND "${NM}" -D --defined-only "${LIB}"
  OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIB}")
endif()
string(REGEX MATCHALL "[^\n ]+\n" syms "${out}")
set(exported "")
foreach(s ${syms})
  string(STRIP "${s}" s)
  list(APPEND exported ${s})
endforeach()
foreach(name ${declared})
  if(NOT name IN_LIST exported)
    message(SEND_ERROR "${name} is declared public but libblocksim.so does "
      "not export it (hint: is it defined, and declared with BSIM_API?)")
  endif()
endforeach()
foreach(s ${exported})
  if(s MATCHES "^bsim_" AND NOT s IN_LIST declared)
    message(SEND_ERROR "libblocksim.so exports ${s}, which no public header "
      "declares (hint: an internal function must not carry BSIM_API)")
  elseif(NOT s MATCHES "^bsim_" AND NOT s MATCHES "^_")
    message(SEND_ERROR "libblocksim.so exports ${s}: outside the bsim_ "
      "namespace")
  endif()
endforeach()
