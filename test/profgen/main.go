// Command profgen writes pprof fixtures for kubectl-chainnode's offline
// `pprof top`: real runtime/pprof profiles of its own workload, and
// deterministic synthetic CPU profiles (small edge-case ones for unit
// tests, a large one for the benchmark).
//
//	(run from test/profgen: it is its own module)
//	go run . fixtures [-dir ../fixtures/pprof]   (everything the unit tests read)
//	go run . real  -out DIR [-cpu 2s] [-trace 30ms]
//	go run . synth -out FILE [-samples N] [-functions N] [-locations N] [-depth N] [-seed N]
//	                            [-edge] [-raw] [-dropframes RE] [-keepframes RE] [-docurl URL]
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: profgen fixtures|real|synth [flags]")
		os.Exit(2)
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "real":
		fs := flag.NewFlagSet("real", flag.ExitOnError)
		out := fs.String("out", ".", "output directory")
		cpu := fs.Duration("cpu", 2*time.Second, "CPU profile duration")
		tr := fs.Duration("trace", 30*time.Millisecond, "execution trace duration")
		fs.Parse(args)
		err = writeReal(*out, *cpu, *tr)
	case "fixtures":
		fs := flag.NewFlagSet("fixtures", flag.ExitOnError)
		dir := fs.String("dir", "../fixtures/pprof", "fixture directory")
		fs.Parse(args)
		err = writeFixtures(*dir)
	case "synth":
		fs := flag.NewFlagSet("synth", flag.ExitOnError)
		out := fs.String("out", "synthetic.pb.gz", "output file")
		o := synthOptions{}
		fs.IntVar(&o.samples, "samples", 400_000, "number of samples")
		fs.IntVar(&o.functions, "functions", 4_000, "number of functions")
		fs.IntVar(&o.locations, "locations", 12_000, "number of locations")
		fs.IntVar(&o.maxDepth, "depth", 43, "maximum stack depth")
		fs.Uint64Var(&o.seed, "seed", 1, "random seed")
		fs.BoolVar(&o.edge, "edge", false, "add edge cases")
		fs.StringVar(&o.dropFrames, "dropframes", "", "drop_frames regexp")
		fs.StringVar(&o.keepFrames, "keepframes", "", "keep_frames regexp")
		fs.StringVar(&o.docURL, "docurl", "", "doc_url")
		raw := fs.Bool("raw", false, "write uncompressed protobuf")
		fs.Parse(args)
		err = writeSynth(*out, o, *raw)
	default:
		err = fmt.Errorf("unknown command %q", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "profgen:", err)
		os.Exit(1)
	}
}

func writeSynth(out string, o synthOptions, raw bool) error {
	data := synthesize(o).encode()
	if !raw {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(data)
		if err := zw.Close(); err != nil {
			return err
		}
		data = buf.Bytes()
	}
	return os.WriteFile(out, data, 0o644)
}
