package shell

import (
	"context"
	"os"

	"github.com/qsh-shell/qsh/keys"
)

// readKey reads one key from the terminal in raw mode; see [keys.Read].
func readKey(ctx context.Context, in *os.File) (rune, error) { return keys.Read(ctx, in) }
