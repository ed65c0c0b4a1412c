module kubectl-chainnode/test/profgen

go 1.22
