module example.com/antipattern

go 1.26
