import { benchCluster } from './cluster.js'
import { refreshLiveness } from '../test/cluster/scenarios/index.js'
const { ctx } = await benchCluster('.cluster')
await refreshLiveness(ctx)
