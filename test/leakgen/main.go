// Command leakgen is the leak the kubectl-chainnode tests hunt for.
//
// It serves Go's net/http/pprof (as a chain process does on rpc.pprof_laddr)
// and, on every tick, keeps a new block of memory reachable from a global
// cache and parks new goroutines that never return: the two leaks an on-call
// engineer chases with `pprof heap --growth` and `pprof goroutine --growth`.
// Everything it leaks happens in functions named for what they do, so a test
// can look for them by name in the profiles:
//
//	leakyCache.store        grows inuse_space by -leak-kb KiB per tick
//	parkForever             adds -goroutines goroutines per tick
//	steadyWork              allocates and frees (alloc_space grows, inuse does not)
//
//	leakgen -port 0 -port-file F    pick a free port and write it to F
//
// Standard library only.
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
)

type leakyCache struct {
	mu     sync.Mutex
	blocks [][]byte
}

// store keeps every block forever: the memory leak.
func (c *leakyCache) store(size int) {
	block := make([]byte, size)
	for i := range block {
		block[i] = byte(i)
	}
	c.mu.Lock()
	c.blocks = append(c.blocks, block)
	c.mu.Unlock()
}

var cache leakyCache

// parkForever waits on a channel nobody closes: the goroutine leak.
func parkForever(never <-chan struct{}) { <-never }

var sink []byte

// steadyWork allocates and drops buffers: alloc_space grows, inuse_space stays flat.
func steadyWork(n int) {
	for i := 0; i < n; i++ {
		sink = make([]byte, 4096)
	}
}

func main() {
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", 0, "port to serve on (0 picks a free one)")
	portFile := flag.String("port-file", "", "write the port actually bound to this file")
	every := flag.Duration("every", 100*time.Millisecond, "how often to leak")
	leakKB := flag.Int("leak-kb", 64, "KiB kept forever per tick")
	goroutines := flag.Int("goroutines", 2, "goroutines parked forever per tick")
	ticks := flag.Int("ticks", 0, "stop leaking after this many ticks (0: never), so later captures agree")
	flag.Parse()

	// Sample every allocation so small test runs give exact, stable heap profiles.
	runtime.MemProfileRate = 1
	runtime.SetBlockProfileRate(1)
	runtime.SetMutexProfileFraction(1)

	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	ln, err := net.Listen("tcp", net.JoinHostPort(*host, strconv.Itoa(*port)))
	if err != nil {
		fmt.Fprintln(os.Stderr, "leakgen:", err)
		os.Exit(1)
	}
	if *portFile != "" {
		tmp := *portFile + ".tmp"
		if err := os.WriteFile(tmp, []byte(strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)), 0o644); err == nil {
			_ = os.Rename(tmp, *portFile)
		}
	}
	go func() { _ = http.Serve(ln, mux) }()

	never := make(chan struct{})
	ticker := time.NewTicker(*every)
	done := 0
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGINT, syscall.SIGTERM)
	for {
		select {
		case <-stop:
			return
		case <-ticker.C:
			if *ticks > 0 && done >= *ticks {
				continue
			}
			done++
			cache.store(*leakKB << 10)
			for i := 0; i < *goroutines; i++ {
				go parkForever(never)
			}
			steadyWork(16)
			// A heap profile shows the heap as of the last GC: collect now so inuse is what is really kept.
			runtime.GC()
		}
	}
}
