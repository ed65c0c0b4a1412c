module chainnode.local/test/signerd

go 1.26
