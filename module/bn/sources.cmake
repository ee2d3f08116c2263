# Sources of module/bn/.
list(APPEND FIPSMOD_SOURCES)
