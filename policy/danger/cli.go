package danger

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
)

const cliUsage = `usage: qsh --classify [--json] [--] [COMMAND...]
Classifies each COMMAND (or each line of standard input when none is given)
as safe, dev, dangerous or blocked and prints CLASS<TAB>COMMAND<TAB>REASON,
or with --json one {"cmd","class","reasons"} object per line.
`

// RunCLI implements `qsh --classify [--json] [--] [COMMAND…]`. args are the
// arguments after --classify (a leading "--classify" is skipped too). The
// workspace is the current directory. It returns the exit status: 0 when
// every command was read, 1 when reading failed, 2 on a usage error.
func RunCLI(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "--classify" {
		args = args[1:]
	}
	asJSON := false
	var cmds []string
	for i, a := range args {
		if a == "--" {
			cmds = append(cmds, args[i+1:]...)
			break
		}
		if a == "--json" {
			asJSON = true
			continue
		}
		if a == "-h" || a == "--help" {
			io.WriteString(stdout, cliUsage)
			return 0
		}
		if strings.HasPrefix(a, "-") && len(cmds) == 0 {
			fmt.Fprintf(stderr, "qsh --classify: unknown flag %s\n%s", a, cliUsage)
			return 2
		}
		cmds = append(cmds, a)
	}
	dir, _ := os.Getwd()
	home, _ := os.UserHomeDir()
	ws := Workspace{Dir: dir, Home: home}
	bw := bufio.NewWriter(stdout)
	defer bw.Flush()
	print := func(cmd string) {
		v := Classify(cmd, ws)
		if asJSON {
			reasons := v.Reasons
			if reasons == nil {
				reasons = []string{}
			}
			b, _ := json.Marshal(struct {
				Cmd     string   `json:"cmd"`
				Class   string   `json:"class"`
				Reasons []string `json:"reasons"`
			}{cmd, v.Class.String(), reasons})
			bw.Write(b)
			bw.WriteByte('\n')
			return
		}
		fmt.Fprintf(bw, "%s\t%s\t%s\n", v.Class, oneLine(cmd), oneLine(strings.Join(v.Reasons, "; ")))
	}
	if len(cmds) > 0 {
		for _, c := range cmds {
			print(c)
		}
		return 0
	}
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		print(line)
	}
	if err := sc.Err(); err != nil {
		bw.Flush()
		fmt.Fprintf(stderr, "qsh --classify: reading standard input: %v\n", err)
		return 1
	}
	return 0
}

// oneLine keeps the tab-separated format intact for multi-line commands.
func oneLine(s string) string {
	return strings.NewReplacer("\t", `\t`, "\n", `\n`, "\r", `\r`).Replace(s)
}
