/** The projectors' helpers live in contracts (the write side applies the content projections too). */
export { and, compare, domainEventOf, inChunks, streamEntityId } from '../../contracts/index.ts';
