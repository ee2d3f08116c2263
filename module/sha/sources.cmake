# Sources of module/sha/.
list(APPEND FIPSMOD_SOURCES)
