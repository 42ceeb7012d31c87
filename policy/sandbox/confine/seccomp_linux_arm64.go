package confine

const seccompNr = 277
