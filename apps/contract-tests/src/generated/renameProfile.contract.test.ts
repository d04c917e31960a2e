import { describeGeneratedCases } from '../harness/generated-cases.js';

describeGeneratedCases('renameProfile');
