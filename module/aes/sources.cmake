# Sources of module/aes/.
list(APPEND FIPSMOD_SOURCES)
