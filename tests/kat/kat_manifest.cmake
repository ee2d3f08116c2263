# Registration of known-answer tests from a manifest of vector files (tests/kat/manifest.tsv,
# whose header describes the columns and the readers), and kat_vector_test for the areas that
# register a vector file of their own (tests/mldsa). Included by tests/CMakeLists.txt before any
# area, so every area can use both; the programs they run (kat_driver, acvp_split, fipsmod_cli)
# are targets of tests/kat and of the CLI, resolved when the build is generated.

# fipsmod_kat_test(<reader> <name> <file> <expect> <labels> [option ...]): one row of a manifest,
# registered as the manifest's header says. Directories of outputs (corrupted copies, split sets,
# ACVP responses) lie under the calling directory's build folder.
function(fipsmod_kat_test reader name file expect labels)
  set(vectors ${PROJECT_SOURCE_DIR}/tests/vectors)
  if(file MATCHES "^tests/")
    set(path ${PROJECT_SOURCE_DIR}/${file})
  else()
    set(path ${vectors}/${file})
  endif()
  if(labels STREQUAL "-")
    set(labels "")
  endif()
  string(REPLACE "," ";" labels "${labels}")
  set(timeout "")
  set(args "")
  set(regex "")
  set(expected "")
  set(fields "")
  set(defines "")
  set(acvp_extra "")
  foreach(opt IN LISTS ARGN)
    string(REPLACE "{vectors}" "${vectors}" opt "${opt}")
    if(opt MATCHES "^TIMEOUT=(.*)$")
      set(timeout ${CMAKE_MATCH_1})
    elseif(opt MATCHES "^ARGS=(.*)$")
      separate_arguments(args UNIX_COMMAND "${CMAKE_MATCH_1}")
    elseif(opt MATCHES "^REGEX=(.*)$")
      set(regex "${CMAKE_MATCH_1}")
    elseif(opt MATCHES "^EXPECTED=(.*)$")
      set(expected ${vectors}/${CMAKE_MATCH_1})
    elseif(opt MATCHES "^FIELDS=(.*)$")
      string(REPLACE "," ";" fields "${CMAKE_MATCH_1}")
    elseif(opt MATCHES "^FIELD=(.*)$")
      list(APPEND acvp_extra -DCORRUPT_FIELD=${CMAKE_MATCH_1})
    elseif(opt STREQUAL "CORRUPT")
      list(APPEND acvp_extra -DCORRUPT=1)
    elseif(opt STREQUAL "DROP")
      list(APPEND acvp_extra -DDROP=1)
    elseif(opt MATCHES "^-D")
      list(APPEND defines "${opt}")
    elseif(NOT opt MATCHES "^WHEN=")
      message(FATAL_ERROR "KAT manifest, ${reader} ${name}: unknown option '${opt}'")
    endif()
  endforeach()
  if(expect MATCHES "^([0-9]+)/([0-9]+)$")
    set(counts --expect-pass ${CMAKE_MATCH_1} --expect-fail 0 --expect-skip ${CMAKE_MATCH_2})
  elseif(NOT expect MATCHES "^[0-9]+$")
    message(FATAL_ERROR "KAT manifest, ${reader} ${name}: expect '${expect}' is neither "
      "PASSED/SKIPPED nor an exit status")
  endif()

  if(reader STREQUAL "kat")
    if(NOT timeout)
      set(timeout 120)
    endif()
    set(cmd ${KAT_DRIVER_RUN} ${args} ${counts} ${path})
    add_test(NAME kat-${name} COMMAND ${cmd})
    add_test(NAME kat-${name}-portable COMMAND ${cmd})
    set_tests_properties(kat-${name} PROPERTIES LABELS "kat;${labels}" TIMEOUT ${timeout})
    set_tests_properties(kat-${name}-portable PROPERTIES LABELS "kat;${labels}"
      TIMEOUT ${timeout} ENVIRONMENT "FIPSMOD_CPU=portable")
  elseif(reader STREQUAL "kat-pair")
    add_test(NAME kat-pair-${name}
      COMMAND kat_driver ${counts} ${path}/prompt.json ${path}/expectedResults.json)
    set_tests_properties(kat-pair-${name} PROPERTIES LABELS "kat;acvp;${labels}" TIMEOUT 300)
  elseif(reader STREQUAL "kat-split")
    set(dir ${CMAKE_CURRENT_BINARY_DIR}/split-${name})
    file(MAKE_DIRECTORY ${dir})
    add_test(NAME kat-split-${name}-setup COMMAND acvp_split ${path} ${dir} ${fields})
    set_tests_properties(kat-split-${name}-setup PROPERTIES FIXTURES_SETUP split-${name}
      LABELS "kat;unit;${labels}")
    foreach(which prompt expectedResults)
      add_test(NAME kat-split-${name}-${which} COMMAND kat_driver ${counts} ${dir}/${which}.json)
      set_tests_properties(kat-split-${name}-${which} PROPERTIES FIXTURES_REQUIRED split-${name}
        LABELS "kat;unit;${labels}")
    endforeach()
    # Without its expectedResults.json a prompt carries no answers: a clear error, not a pass.
    add_test(NAME kat-split-${name}-alone
      COMMAND ${CMAKE_COMMAND} -DDRIVER=${KAT_DRIVER_RUN} -DSRC=${dir}/prompt.json
        -DWORK=${dir}/alone/prompt.json -DEXPECT_RC=2 -DCOPY=1
        "-DEXPECT_REGEX=ERROR: .*alone/expectedResults\\.json.*cannot open|ERROR: .*alone/expectedResults"
        -P ${PROJECT_SOURCE_DIR}/tests/kat/kat_corrupt.cmake)
    set_tests_properties(kat-split-${name}-alone PROPERTIES FIXTURES_REQUIRED split-${name}
      LABELS "kat;unit;${labels}")
  elseif(reader STREQUAL "kat-corrupt")
    get_filename_component(ext ${file} EXT)
    set(work ${CMAKE_CURRENT_BINARY_DIR}/corrupt)
    file(MAKE_DIRECTORY ${work})
    add_test(NAME kat-corrupt-${name}
      COMMAND ${CMAKE_COMMAND} -DDRIVER=${KAT_DRIVER_RUN} -DSRC=${path}
        -DWORK=${work}/${name}${ext} -DEXPECT_RC=${expect} -DEXPECT_REGEX=${regex} ${defines}
        -P ${PROJECT_SOURCE_DIR}/tests/kat/kat_corrupt.cmake)
    set_tests_properties(kat-corrupt-${name} PROPERTIES LABELS "kat;unit;${labels}" TIMEOUT 120)
  elseif(reader STREQUAL "acvp")
    if(NOT timeout)
      set(timeout 120)
    endif()
    if(regex)
      list(PREPEND acvp_extra "-DEXPECT_REGEX=${regex}")
    endif()
    set(out ${CMAKE_CURRENT_BINARY_DIR}/acvp)
    file(MAKE_DIRECTORY ${out})
    add_test(NAME acvp-${name}
      COMMAND ${CMAKE_COMMAND} -DFIPSMOD=${FIPSMOD_RUN_CLI} -DPYTHON=${Python3_EXECUTABLE}
        -DCHECKER=${PROJECT_SOURCE_DIR}/tests/acvp/acvp_check.py -DPROMPT=${path}
        -DEXPECTED=${expected} -DOUT=${out}/${name}.json -DEXPECT_RC=${expect} ${acvp_extra}
        -P ${PROJECT_SOURCE_DIR}/tests/acvp/acvp_response.cmake)
    set_tests_properties(acvp-${name} PROPERTIES LABELS "kat;acvp;${labels}" TIMEOUT ${timeout})
  else()
    message(FATAL_ERROR "KAT manifest: unknown reader '${reader}' (row ${name})")
  endif()
endfunction()

# fipsmod_kat_manifest(<manifest>): registers every row of a manifest whose condition holds
# (WHEN=large: FIPSMOD_KAT_LARGE; WHEN=python-cryptography: FIPSMOD_KAT_PYTHON_CRYPTOGRAPHY, which
# the caller sets when python3 can import cryptography).
function(fipsmod_kat_manifest manifest)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${manifest})
  file(STRINGS ${manifest} rows ENCODING UTF-8)
  set(left_out 0)
  foreach(row IN LISTS rows)
    if(row MATCHES "^[ \t]*(#|$)")
      continue()
    endif()
    string(REPLACE "\t" ";" fields "${row}")
    list(LENGTH fields n)
    if(n LESS 5)
      message(FATAL_ERROR "${manifest}: a row needs reader, name, file, expect and labels: ${row}")
    endif()
    if(row MATCHES "\tWHEN=large(\t|$)" AND NOT FIPSMOD_KAT_LARGE)
      continue()
    endif()
    if(row MATCHES "\tWHEN=python-cryptography(\t|$)" AND NOT FIPSMOD_KAT_PYTHON_CRYPTOGRAPHY)
      math(EXPR left_out "${left_out} + 1")
      continue()
    endif()
    fipsmod_kat_test(${fields})
  endforeach()
  if(left_out GREATER 0)
    message(STATUS "python3 with the cryptography package not found: ${left_out} rows of "
      "${manifest} (ACVP response checks) not registered")
  endif()
endfunction()

# kat_vector_test(<name> <file under tests/vectors> <passed> <skipped> [ARGS ...] [LABELS ...]
#                 [TIMEOUT s]): one kat row registered from code.
function(kat_vector_test name file pass skip)
  cmake_parse_arguments(K "" "TIMEOUT" "ARGS;LABELS" ${ARGN})
  set(opts "")
  if(K_TIMEOUT)
    list(APPEND opts TIMEOUT=${K_TIMEOUT})
  endif()
  if(K_ARGS)
    list(JOIN K_ARGS " " joined)
    list(APPEND opts "ARGS=${joined}")
  endif()
  set(labels -)
  if(K_LABELS)
    list(JOIN K_LABELS "," labels)
  endif()
  fipsmod_kat_test(kat ${name} ${file} ${pass}/${skip} ${labels} ${opts})
endfunction()
