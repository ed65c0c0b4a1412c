module chainnode.local/test/pprofd

go 1.26.0
