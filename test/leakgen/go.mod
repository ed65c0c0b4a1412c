module chainnode.local/test/leakgen

go 1.26.0
