# Sources of module/rsa/.
list(APPEND FIPSMOD_SOURCES)
