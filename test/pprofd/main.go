// Command pprofd is the profiling target of the kubectl-chainnode test cluster.
//
// It stands in for cosmopilot's node-utils sidecar, which serves Go's
// net/http/pprof on 127.0.0.1:6666. It keeps background goroutines busy with
// real CPU work and allocations so that CPU, heap, allocs, goroutine, block and
// mutex profiles have content (block and mutex sampling stay at the runtime's
// defaults, i.e. off, unless -blockprofilerate / -mutexprofilefraction are given).
//
//	pprofd -port 16666              serve /debug/pprof/ on 127.0.0.1:16666
//	pprofd -port 0 -port-file F     pick a free port and write it to F
//	pprofd -port-taken              behave like node-utils when 6666 is taken:
//	                                log the bind warning, serve nothing, keep running
//	pprofd -serve -port P           answer every path with a plain HTML page
//	                                (a "not a profile" server)
//
// Logs go to stderr in logrus' text format, as node-utils writes them.
// Standard library only.
package main

import (
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

func logf(level, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(os.Stderr, "time=%q level=%s msg=%s\n",
		time.Now().Format(time.RFC3339), level, strconv.Quote(msg))
}

func main() {
	host := flag.String("host", "127.0.0.1", "address to listen on (keep it on loopback)")
	port := flag.Int("port", 6666, "port to serve on (0 picks a free one)")
	portFile := flag.String("port-file", "", "write the port actually bound to this file")
	portTaken := flag.Bool("port-taken", false, "mimic node-utils finding the pprof port taken: log the warning and serve nothing")
	serve := flag.Bool("serve", false, "serve a plain HTML page on every path instead of pprof")
	workers := flag.Int("workers", 1, "CPU-burning goroutines")
	duty := flag.Float64("duty", 0.1, "fraction of each 10ms slice a CPU worker spends busy (0..1)")
	retainMB := flag.Int("retain-mb", 8, "MiB kept live in the heap (shows up in inuse_space)")
	memRate := flag.Int("memprofilerate", 0, "runtime.MemProfileRate in bytes; 0 keeps the runtime default (512 KiB)")
	blockRate := flag.Int("blockprofilerate", 0, "runtime.SetBlockProfileRate; 0 keeps the runtime default (off), as node-utils does")
	mutexFraction := flag.Int("mutexprofilefraction", 0, "runtime.SetMutexProfileFraction; 0 keeps the runtime default (off)")
	flag.Parse()

	if *memRate > 0 {
		runtime.MemProfileRate = *memRate
	}
	if *blockRate > 0 {
		runtime.SetBlockProfileRate(*blockRate)
	}
	if *mutexFraction > 0 {
		runtime.SetMutexProfileFraction(*mutexFraction)
	}

	logf("info", "starting node-utils test double (pid %d, go %s)", os.Getpid(), runtime.Version())

	stop := make(chan struct{})
	startWork(stop, *workers, *duty, *retainMB)

	addr := net.JoinHostPort(*host, strconv.Itoa(*port))
	var srv *http.Server
	if *portTaken {
		// node-utils logs the listen error as a warning and carries on without profiling.
		err := &net.OpError{Op: "listen", Net: "tcp", Addr: tcpAddr(*host, *port), Err: os.NewSyscallError("bind", syscall.EADDRINUSE)}
		logf("warning", "profiling disabled: %v", err)
	} else {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				logf("warning", "profiling disabled: %v", err)
			} else {
				logf("fatal", "listen: %v", err)
				os.Exit(1)
			}
		} else {
			bound := ln.Addr().(*net.TCPAddr).Port
			if *portFile != "" {
				tmp := *portFile + ".tmp"
				if err := os.WriteFile(tmp, []byte(strconv.Itoa(bound)+"\n"), 0o644); err == nil {
					_ = os.Rename(tmp, *portFile)
				}
			}
			var handler http.Handler
			if *serve {
				handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "text/html; charset=utf-8")
					fmt.Fprintf(w, "<!doctype html><html><body><h1>node status</h1><p>this is not a profile (%s)</p></body></html>\n", r.URL.Path)
				})
				logf("info", "serving plain HTTP on %s", ln.Addr())
			} else {
				mux := http.NewServeMux()
				mux.HandleFunc("/debug/pprof/", pprof.Index)
				mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
				mux.HandleFunc("/debug/pprof/profile", whileCapturing(pprof.Profile))
				mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
				mux.HandleFunc("/debug/pprof/trace", whileCapturing(pprof.Trace))
				mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
				handler = mux
				logf("info", "pprof listening on %s", ln.Addr())
			}
			// No WriteTimeout: /debug/pprof/profile?seconds=N must be allowed to run long.
			srv = &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
			go func() {
				if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
					logf("error", "serve: %v", err)
				}
			}()
		}
	}

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	s := <-sigs
	logf("info", "received %s, shutting down", s)
	close(stop)
	if srv != nil {
		_ = srv.Close()
	}
}

func tcpAddr(host string, port int) net.Addr {
	return &net.TCPAddr{IP: net.ParseIP(host), Port: port}
}

// ---- background work -------------------------------------------------------

var (
	sinkMu   sync.Mutex
	sink     [][]byte
	sinkNext int
	digest   [32]byte
)

func startWork(stop <-chan struct{}, workers int, duty float64, retainMB int) {
	if duty < 0 {
		duty = 0
	}
	if duty > 1 {
		duty = 1
	}
	sink = make([][]byte, max(retainMB*4, 1)) // 256 KiB blocks
	for i := 0; i < workers; i++ {
		go cpuWorker(stop, duty)
	}
	go allocWorker(stop)
	go blockWorker(stop)
}

// capturing counts CPU profiles and traces being served. The CPU workers only burn while one is:
// node-utils is mostly idle too, and a target that burns a core share all the time slows every
// test and benchmark that shares the machine with it.
var capturing atomic.Int32

func whileCapturing(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		capturing.Add(1)
		defer capturing.Add(-1)
		h(w, r)
	}
}

// cpuWorker spends `duty` of each 10ms slice hashing and sorting while a capture runs.
func cpuWorker(stop <-chan struct{}, duty float64) {
	busy := time.Duration(float64(10*time.Millisecond) * duty)
	buf := make([]byte, 64*1024)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	for {
		select {
		case <-stop:
			return
		default:
		}
		if capturing.Load() == 0 {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		start := time.Now()
		for time.Since(start) < busy {
			hashBlocks(buf)
			sortNumbers(2048)
		}
		time.Sleep(10*time.Millisecond - busy)
	}
}

//go:noinline
func hashBlocks(buf []byte) {
	for i := 0; i < 4; i++ {
		digest = sha256.Sum256(append(buf[:0:0], buf...))
		buf[i] ^= digest[i]
	}
}

//go:noinline
func sortNumbers(n int) {
	xs := make([]int, n)
	seed := int(digest[0]) + 1
	for i := range xs {
		seed = (seed*1103515245 + 12345) & 0x7fffffff
		xs[i] = seed
	}
	sort.Ints(xs)
}

// allocWorker keeps retainMB live (inuse_space) and churns short-lived garbage (alloc_space).
func allocWorker(stop <-chan struct{}) {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			retainBlock()
			churnGarbage()
		}
	}
}

//go:noinline
func retainBlock() {
	b := make([]byte, 256*1024)
	for i := 0; i < len(b); i += 4096 {
		b[i] = byte(i)
	}
	sinkMu.Lock()
	sink[sinkNext%len(sink)] = b
	sinkNext++
	sinkMu.Unlock()
}

//go:noinline
func churnGarbage() {
	var sb strings.Builder
	for i := 0; i < 200; i++ {
		sb.WriteString(strconv.Itoa(i))
		_ = make([]byte, 1024+i)
	}
	_ = sb.String()
}

// blockWorker contends on a mutex and a channel, so block/mutex profiles have
// content when their sampling is switched on.
func blockWorker(stop <-chan struct{}) {
	ch := make(chan int)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				select {
				case ch <- 1:
				case <-stop:
					return
				}
			}
		}
	}()
	for {
		select {
		case <-stop:
			return
		case <-ch:
			sinkMu.Lock()
			time.Sleep(time.Millisecond)
			sinkMu.Unlock()
		}
	}
}
