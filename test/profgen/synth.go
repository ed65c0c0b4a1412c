package main

import (
	"fmt"
	"math/rand/v2"
)

// synthOptions shapes a synthetic CPU profile. The generator is
// deterministic for a given seed.
type synthOptions struct {
	samples   int
	functions int
	locations int
	maxDepth  int
	seed      uint64
	// edge adds the cases that exercise pprof's corner rules: C++-like
	// names, unnamed functions, line-less locations, negative and zero
	// values, empty stacks, a non-default sample type and drop_frames.
	edge bool
	// dropFrames/keepFrames are written to the profile's drop_frames and
	// keep_frames fields; docURL to doc_url.
	dropFrames, keepFrames, docURL string
}

var packages = []string{
	"github.com/cosmos/cosmos-sdk/baseapp",
	"github.com/cosmos/cosmos-sdk/store/iavl",
	"github.com/cometbft/cometbft/consensus",
	"github.com/cometbft/cometbft/p2p",
	"github.com/cometbft/cometbft/mempool",
	"github.com/cosmos/iavl",
	"github.com/syndtr/goleveldb/leveldb",
	"google.golang.org/protobuf/proto",
	"encoding/json",
	"runtime",
	"sync",
	"crypto/sha256",
	"github.com/chain/node/x/bank/keeper",
	"github.com/chain/node/x/staking/v2/keeper",
}

var kinds = []string{"Store", "Tree", "State", "Reactor", "Peer", "Keeper", "Codec", "DB", "Iterator", "Batch"}
var verbs = []string{"Get", "Set", "Commit", "Hash", "Marshal", "Unmarshal", "Apply", "Validate", "Next", "Write", "Flush", "Load"}

func funcName(r *rand.Rand, i int) string {
	pkg := packages[i%len(packages)]
	k := kinds[r.IntN(len(kinds))]
	v := verbs[r.IntN(len(verbs))]
	switch i % 5 {
	case 0:
		return fmt.Sprintf("%s.(*%s%d).%s", pkg, k, i, v)
	case 1:
		return fmt.Sprintf("%s.%s%s%d", pkg, v, k, i)
	case 2:
		return fmt.Sprintf("%s.(*%s%d).%s.func%d", pkg, k, i, v, 1+i%3)
	case 3:
		return fmt.Sprintf("%s.%s%d[...]", pkg, v, i)
	default:
		return fmt.Sprintf("%s.(*%s%d[...]).%s", pkg, k, i, v)
	}
}

func synthesize(o synthOptions) *profile {
	r := rand.New(rand.NewPCG(o.seed, o.seed^0x9e3779b97f4a7c15))
	p := &profile{
		sampleTypes:   []valueType{{"samples", "count"}, {"cpu", "nanoseconds"}},
		periodType:    &valueType{"cpu", "nanoseconds"},
		period:        10_000_000,
		timeNanos:     1_795_392_000_123_456_789,
		durationNanos: int64(o.samples) * 10_000_000 / 4,
		mappings: []mapping{
			{id: 1, start: 0x400000, limit: 0x4000000, file: "/usr/local/bin/chaind", buildID: "b1d5e7c0ffee", hasFunctions: true},
			{id: 2, start: 0x7f0000000000, limit: 0x7f0000100000, file: "", hasFunctions: true},
		},
	}
	p.dropFrames, p.keepFrames, p.docURL = o.dropFrames, o.keepFrames, o.docURL
	if o.edge {
		p.sampleTypes = append(p.sampleTypes, valueType{"alloc", "bytes"})
		p.defaultSampleType = "cpu"
		p.comments = []string{"synthetic edge-case profile", "#hidden comment"}
	}

	for i := 0; i < o.functions; i++ {
		name := funcName(r, i)
		sys := name
		if o.edge {
			switch i {
			case 1:
				name = "std::vector<int, std::allocator<int> >::push_back(int const&)"
				sys = name
			case 2:
				name, sys = "", "" // becomes [chaind]
			case 3:
				name, sys = "", "legacy.helperFromSystemName" // named from system name
			case 4:
				name = "main.ünïcödé.Fünc"
				sys = name
			case 5:
				name = "runtime.memmove" // duplicate name of another function id
				sys = name
			case 6:
				name = "runtime.memmove"
				sys = name
			case 7:
				name = "github.com/chain/node/app.(*App).FinalizeBlock"
				sys = name
			}
		}
		p.functions = append(p.functions, function{
			id: uint64(i + 1), name: name, systemName: sys,
			file: fmt.Sprintf("/src/%s/file%d.go", packages[i%len(packages)], i%17), startLine: int64(10 + i),
		})
	}

	// Locations: 1..4 lines; a line's function is biased towards a
	// neighbourhood so inline chains look like real call chains, and
	// some chains repeat a function (inlined recursion).
	for i := 0; i < o.locations; i++ {
		nl := 1
		switch x := r.IntN(10); {
		case x >= 9:
			nl = 4
		case x >= 8:
			nl = 3
		case x >= 6:
			nl = 2
		}
		base := r.IntN(o.functions)
		lines := make([]line, nl)
		for j := range lines {
			f := (base + j*r.IntN(7)) % o.functions
			if j > 0 && r.IntN(12) == 0 {
				f = int(lines[j-1].fn) - 1 // same function inlined into itself
			}
			lines[j] = line{fn: uint64(f + 1), line: int64(20 + r.IntN(400))}
		}
		mp := uint64(1)
		if o.edge && i%97 == 5 {
			mp = 2
		}
		loc := location{id: uint64(i + 1), mapping: mp, address: 0x400000 + uint64(i)*64, lines: lines}
		if o.edge && i >= 10 && i < 18 {
			loc.lines[0].fn = uint64(i - 9) // make sure the special functions are used
		}
		if o.edge && i%53 == 7 {
			loc.lines = nil // unsymbolized: shows as [chaind] or <unknown>
			if i%2 == 0 {
				loc.mapping = 2
			}
		}
		p.locations = append(p.locations, loc)
	}

	// A call graph over locations: each has a few preferred callees so
	// stacks share prefixes and the cum column is meaningful.
	callees := make([][]uint64, o.locations)
	for i := range callees {
		n := 2 + r.IntN(4)
		for j := 0; j < n; j++ {
			callees[i] = append(callees[i], uint64(1+r.IntN(o.locations)))
		}
	}
	roots := []uint64{1, 2, 3, 4, 5, 6, 7, 8}
	stack := make([]uint64, 0, o.maxDepth+8)
	for s := 0; s < o.samples; s++ {
		stack = stack[:0]
		cur := roots[int(r.ExpFloat64()*2)%len(roots)]
		depth := 1 + r.IntN(o.maxDepth)
		for d := 0; d < depth; d++ {
			stack = append(stack, cur)
			cs := callees[cur-1]
			// Zipf-ish choice: the first callee dominates.
			k := int(r.ExpFloat64()) % len(cs)
			cur = cs[k]
			if r.IntN(25) == 0 && len(stack) > 3 {
				cur = stack[len(stack)-3] // recursion
			}
		}
		// stack is root first; pprof wants leaf first.
		locs := make([]uint64, len(stack))
		for i, l := range stack {
			locs[len(stack)-1-i] = l
		}
		n := int64(1)
		if r.IntN(10) == 0 {
			n = int64(2 + r.IntN(5))
		}
		values := []int64{n, n * 10_000_000}
		var labels []label
		if s%7 == 0 {
			labels = append(labels, label{key: "span", str: fmt.Sprintf("block-%d", s%5)})
		}
		if o.edge {
			values = append(values, int64(r.IntN(1<<20)))
			switch s % 41 {
			case 3:
				values = []int64{-n, -n * 10_000_000, -int64(r.IntN(1 << 16))}
			case 4:
				values = []int64{0, 0, 0}
			case 5:
				locs = nil
			}
			labels = append(labels, label{key: "bytes", num: int64(r.IntN(4096)), numUnit: "bytes"})
		}
		p.samples = append(p.samples, sample{locs: locs, values: values, labels: labels})
	}
	return p
}
