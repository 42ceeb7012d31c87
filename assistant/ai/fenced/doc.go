// Package fenced finds tool calls written as text, for models without
// function calling: a block fenced as ```tool holding one JSON object
// {"name", "args", "reason"}. The [Parser] reads the answer as it streams,
// passes the prose through and keeps the blocks out of it.
package fenced
