package confine

const seccompNr = 317
