package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"sort"
	"strings"
	"sync"
	"time"
)

// The workload below is deliberately a mix of small functions the
// compiler inlines (mix, blockKey, newTx), recursion (fib, walk),
// and library code (sort, json, sha256), so that real profiles carry
// inlined frames and repeated frames in one stack.

type tx struct {
	Hash   string            `json:"hash"`
	Height int64             `json:"height"`
	Msgs   []string          `json:"msgs"`
	Attrs  map[string]string `json:"attrs"`
}

var retained [][]byte
var retainedTx []*tx
var sink uint64

func mix(x uint64) uint64 {
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

func blockKey(h int64) string { return "block/" + fmt.Sprint(h) }

func newTx(h int64) *tx {
	return &tx{Hash: fmt.Sprintf("%064x", mix(uint64(h))), Height: h,
		Msgs: []string{"/cosmos.bank.v1beta1.MsgSend", "/cosmos.staking.v1beta1.MsgDelegate"}, Attrs: map[string]string{"k": blockKey(h)}}
}

//go:noinline
func hashChain(n int) uint64 {
	var acc uint64
	for i := 0; i < n; i++ {
		acc = mix(acc + uint64(i))
	}
	return acc
}

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

type node struct{ left, right *node }

func build(d int) *node {
	if d == 0 {
		return &node{}
	}
	return &node{build(d - 1), build(d - 1)}
}

func walk(n *node) int {
	if n == nil {
		return 0
	}
	return 1 + walk(n.left) + walk(n.right)
}

//go:noinline
func sortHeights(n int) {
	xs := make([]uint64, n)
	for i := range xs {
		xs[i] = mix(uint64(i))
	}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	sink += xs[0]
}

//go:noinline
func encodeBlock(h int64, keep bool) {
	txs := make([]*tx, 20)
	for i := range txs {
		txs[i] = newTx(h*100 + int64(i))
	}
	b, _ := json.Marshal(txs)
	sum := sha256.Sum256(b)
	sink += uint64(sum[0])
	if keep {
		retained = append(retained, b)
		retainedTx = append(retainedTx, txs[0])
	}
}

//go:noinline
func buildIndex(n int) map[string]int {
	m := make(map[string]int)
	var sb strings.Builder
	for i := 0; i < n; i++ {
		sb.Reset()
		sb.WriteString("acc/")
		sb.WriteString(fmt.Sprint(mix(uint64(i)) % 100000))
		m[sb.String()] = i
	}
	return m
}

func work(stop <-chan struct{}, id int) {
	var h int64
	for {
		select {
		case <-stop:
			return
		default:
		}
		h++
		sink += hashChain(20000)
		sink += uint64(fib(18))
		sink += uint64(walk(build(8)))
		sortHeights(2000)
		encodeBlock(h, h%50 == 0)
		if h%10 == 0 {
			sink += uint64(len(buildIndex(3000)))
		}
		if h%200 == 0 {
			retained = append(retained, make([]byte, 64<<10)) // large retained blocks
		}
	}
}

func runWorkload(d time.Duration) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < runtime.GOMAXPROCS(0); i++ {
		wg.Add(1)
		go func(i int) { defer wg.Done(); work(stop, i) }(i)
	}
	time.Sleep(d)
	close(stop)
	wg.Wait()
}

func writeReal(dir string, cpuFor, traceFor time.Duration) error {
	runtime.MemProfileRate = 16 << 10
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	create := func(name string) (*os.File, error) { return os.Create(filepath.Join(dir, name)) }

	cpu, err := create("go-cpu.pb.gz")
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		return err
	}
	runWorkload(cpuFor)
	pprof.StopCPUProfile()
	cpu.Close()

	tr, err := create("go-trace.out")
	if err != nil {
		return err
	}
	if err := trace.Start(tr); err != nil {
		return err
	}
	runWorkload(traceFor)
	trace.Stop()
	tr.Close()

	// Park a few goroutines in distinct functions for the goroutine profile.
	park := make(chan struct{})
	defer close(park)
	for i := 0; i < 12; i++ {
		switch i % 3 {
		case 0:
			go parkedPeer(park)
		case 1:
			go parkedMempool(park)
		default:
			go parkedConsensus(park)
		}
	}
	time.Sleep(20 * time.Millisecond)

	runtime.GC()
	for _, name := range []string{"heap", "allocs", "goroutine"} {
		f, err := create("go-" + name + ".pb.gz")
		if err != nil {
			return err
		}
		if err := pprof.Lookup(name).WriteTo(f, 0); err != nil {
			return err
		}
		f.Close()
	}
	sink += uint64(len(retained) + len(retainedTx))
	return nil
}

//go:noinline
func parkedPeer(c chan struct{}) { <-c }

//go:noinline
func parkedMempool(c chan struct{}) { <-c }

//go:noinline
func parkedConsensus(c chan struct{}) { <-c }
