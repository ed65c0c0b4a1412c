import { vocabularyRule } from './vocabulary/vocabulary-rule.js'

export default vocabularyRule({
  id: 'snapshot-export-failing',
  title: 'Snapshot tarball export, deletion or cleanup fails',
  severity: 'warning',
  specRow: 'Operator vocabulary: TarballExportError, TarballDeleteError, TarballCleanupRequired, SnapshotExportCleanup condition',
})
