package shell

import (
	"fmt"
	"io"
	"os/exec"
	"syscall"
)

// waitProgram waits for a program started without job control and
// returns how it ended; err is for a failure other than its exit status.
// A program that stops is resumed with SIGCONT: without job control a
// stopped program could never be continued and the shell would hang.
// darwin has no waitid in x/sys/unix, so wait4 reaps the process here and
// exec.Cmd.Wait only waits for the copying of its output.
func waitProgram(cmd *exec.Cmd, stderr io.Writer) (syscall.WaitStatus, error) {
	pid := cmd.Process.Pid
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(pid, &ws, syscall.WUNTRACED, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			cmd.Wait()
			return ws, err
		}
		if !ws.Stopped() {
			break
		}
		fmt.Fprintf(stderr, "\r\nqsh: no job control; resuming process %d (Ctrl-C stops it)\r\n", pid)
		syscall.Kill(pid, syscall.SIGCONT)
	}
	cmd.Wait() // reports ECHILD: the process is reaped already
	return ws, nil
}
