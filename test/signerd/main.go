// signerd stands in for the remote signer in end-to-end tests: it serves the signer's
// health probes on HTTP (/livez, /readyz, /status) and, on the privval port, speaks first
// the way the signer does when it dials a node, so a gate check that needs data can pass.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"time"
)

func main() {
	httpAddr := flag.String("http", "127.0.0.1:0", "address of the probe server (/livez, /readyz, /status)")
	gateAddr := flag.String("gate", "127.0.0.1:0", "address of the privval listener")
	portFile := flag.String("port-file", "", "write 'http=<port> gate=<port>' here once listening")
	ready := flag.Bool("ready", true, "answer /readyz with 200 (false: 503)")
	live := flag.Bool("live", true, "answer /livez with 200 (false: 503)")
	silent := flag.Bool("silent", false, "accept privval connections but never send a byte")
	version := flag.String("version", "3.1.0", "version reported on /status")
	flag.Parse()

	httpListener, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		log.Fatalf("probe listener: %v", err)
	}
	gateListener, err := net.Listen("tcp", *gateAddr)
	if err != nil {
		log.Fatalf("privval listener: %v", err)
	}
	if *portFile != "" {
		text := fmt.Sprintf("http=%d gate=%d\n", httpListener.Addr().(*net.TCPAddr).Port, gateListener.Addr().(*net.TCPAddr).Port)
		if err := os.WriteFile(*portFile, []byte(text), 0o644); err != nil {
			log.Fatalf("port file: %v", err)
		}
	}

	probe := func(ok bool, name string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			if !ok {
				http.Error(w, name+" failed: backend preflight not initialised", http.StatusServiceUnavailable)
				return
			}
			fmt.Fprintln(w, "ok")
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/livez", probe(*live, "livez"))
	mux.HandleFunc("/readyz", probe(*ready, "readyz"))
	mux.HandleFunc("/status", func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"version": *version, "ready": *ready, "raft": map[string]any{"state": "Leader"}})
	})
	go func() { log.Fatal(http.Serve(httpListener, mux)) }()

	for {
		conn, err := gateListener.Accept()
		if err != nil {
			log.Fatalf("accept: %v", err)
		}
		go func(c net.Conn) {
			defer c.Close()
			if *silent {
				time.Sleep(10 * time.Minute)
				return
			}
			// A length-prefixed frame: the gate only needs to see bytes arrive.
			_, _ = c.Write([]byte{0x0a, 0x04, 'p', 'i', 'n', 'g'})
			time.Sleep(2 * time.Second)
		}(conn)
	}
}
