from sklearn_bench.cli import main

raise SystemExit(main())
