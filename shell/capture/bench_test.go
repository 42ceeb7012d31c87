package capture

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// BenchmarkCat prints a 100 MB file to a terminal, directly as a shell
// without capture would, and through Proxy with the output recorded.
// A goroutine reading the terminal's master plays the terminal emulator.
func BenchmarkCat(b *testing.B) {
	const size = 100 << 20
	file := filepath.Join(b.TempDir(), "big")
	line := append(bytes.Repeat([]byte("0123456789"), 7), '\n')
	if err := os.WriteFile(file, bytes.Repeat(line, size/len(line)), 0o644); err != nil {
		b.Fatal(err)
	}
	script := `printf "\033]133;C;aid=$QSH_CAPTURE_ID\007"; cat "$0"; printf "\033]133;D;0;aid=$QSH_CAPTURE_ID\007"`
	b.Run("direct", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			catThrough(b, func(slave *os.File) {
				cmd := exec.Command("sh", "-c", script, file)
				cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
				cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
			})
		}
	})
	if _, err := exec.LookPath("script"); err == nil {
		// script(1) for comparison: the same pseudo-terminal in between.
		b.Run("script", func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				catThrough(b, func(slave *os.File) {
					cmd := exec.Command("script", "-qfec", "sh -c '"+script+"' "+file, "/dev/null")
					cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
					cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
					if err := cmd.Run(); err != nil {
						b.Fatal(err)
					}
				})
			}
		})
	}
	b.Run("proxy", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			catThrough(b, func(slave *os.File) {
				if st, err := Proxy(exec.Command("sh", "-c", script, file), slave, slave); st != 0 || err != nil {
					b.Fatal(st, err)
				}
			})
		}
	})
}

// catThrough runs run on a new terminal and returns once the terminal has
// shown everything.
func catThrough(b *testing.B, run func(slave *os.File)) {
	master, slave, err := openPty()
	if err != nil {
		b.Fatal(err)
	}
	defer master.Close()
	done := make(chan int64)
	go func() {
		n, _ := io.Copy(io.Discard, master)
		done <- n
	}()
	// A shell's terminal is a blocking file, as Fd makes it.
	slave.Fd()
	run(slave)
	slave.Close()
	if n := <-done; n < 100<<20 {
		b.Fatalf("the terminal showed %d bytes", n)
	}
}

// BenchmarkEcho measures typing latency: the time from a key typed on the
// terminal to its echo on the screen, with cat reading the terminal,
// directly and through Proxy.
func BenchmarkEcho(b *testing.B) {
	for _, name := range []string{"direct", "proxy"} {
		b.Run(name, func(b *testing.B) {
			master, slave, err := openPty()
			if err != nil {
				b.Fatal(err)
			}
			defer master.Close()
			slave.Fd()
			cmd := exec.Command("cat")
			done := make(chan struct{})
			go func() {
				defer close(done)
				if name == "direct" {
					cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
					cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
					cmd.Run()
				} else {
					Proxy(cmd, slave, slave)
				}
			}()
			buf := make([]byte, 256)
			echo := func() {
				master.Write([]byte("x"))
				for {
					n, err := master.Read(buf)
					if err != nil {
						b.Fatal(err)
					}
					if bytes.Contains(buf[:n], []byte("x")) {
						return
					}
				}
			}
			// Wait until cat runs (and for the proxy: until it relays, in
			// raw mode): a line typed comes back twice, echo and cat's.
			master.Write([]byte("ready\n"))
			var seen []byte
			for bytes.Count(seen, []byte("ready")) < 2 {
				n, err := master.Read(buf)
				if err != nil {
					b.Fatal(err)
				}
				seen = append(seen, buf[:n]...)
			}
			for b.Loop() {
				echo()
			}
			master.Write([]byte("\n\x04")) // end the line, then ^D: cat ends
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-done
				b.Fatal("cat did not end")
			}
			slave.Close()
		})
	}
}
