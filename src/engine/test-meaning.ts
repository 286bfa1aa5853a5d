/** The channel meaning the engine's unit tests give their test channel (the engine never reads it). */
export const TEST_MEANING = { rowLabel: 'caller', attribution: 'caller', groupLabels: ['group'], failure: { kind: 'status-in', statuses: ['error'] }, idKind: 'correlation' } as const;
