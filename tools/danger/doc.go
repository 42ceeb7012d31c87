// Package danger classifies a shell string as safe, dev, dangerous or
// blocked by parsing it and judging every command it would run.
package danger
