package shell

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// waitProgram waits for a program started without job control and
// returns how it ended; err is for a failure other than its exit status.
// A program that stops (Ctrl-Z, SIGTSTP, SIGTTIN) is resumed with SIGCONT:
// without job control a stopped program could never be continued and the
// shell would hang.
func waitProgram(cmd *exec.Cmd, stderr io.Writer) (syscall.WaitStatus, error) {
	waitResumingStopped(cmd.Process.Pid, stderr)
	err := cmd.Wait()
	if cmd.ProcessState == nil {
		return 0, err
	}
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		err = nil
	}
	return ws, err
}

// waitResumingStopped waits until process pid has exited, without reaping
// it (exec.Cmd.Wait does that), resuming it whenever it stops.
func waitResumingStopped(pid int, stderr io.Writer) {
	for {
		var info unix.Siginfo
		err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WSTOPPED|unix.WNOWAIT, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil || info.Code != cldStopped {
			return
		}
		fmt.Fprintf(stderr, "\r\nqsh: no job control; resuming process %d (Ctrl-C stops it)\r\n", pid)
		syscall.Kill(pid, syscall.SIGCONT)
	}
}

// cldStopped is the siginfo code of a child stopped by a signal.
const cldStopped = 5
